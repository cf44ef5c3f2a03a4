package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One HTTP request, read whole: method, path segments, query parameters (first value of each),
 * content type and body (chunked or not; the JDK server de-chunks it).
 */
record ApiRequest(
    String method,
    String path,
    ImmutableList<String> segments,
    ImmutableSortedMap<String, String> query,
    String contentType,
    String userAgent,
    String body) {

  ApiRequest {
    requireNonNull(method, "method is null");
    requireNonNull(path, "path is null");
    requireNonNull(segments, "segments is null");
    requireNonNull(query, "query is null");
    requireNonNull(contentType, "contentType is null");
    requireNonNull(userAgent, "userAgent is null");
    requireNonNull(body, "body is null");
  }

  static ApiRequest read(HttpExchange exchange) throws IOException {
    String body;
    try (InputStream in = exchange.getRequestBody()) {
      body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String path = exchange.getRequestURI().getRawPath();
    ImmutableList.Builder<String> segments = ImmutableList.builder();
    for (String segment : Splitter.on('/').omitEmptyStrings().split(path)) {
      segments.add(URLDecoder.decode(segment, StandardCharsets.UTF_8));
    }
    String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
    String userAgent = exchange.getRequestHeaders().getFirst("User-Agent");
    return new ApiRequest(
        exchange.getRequestMethod().toUpperCase(java.util.Locale.ROOT),
        path,
        segments.build(),
        parseQuery(exchange.getRequestURI().getRawQuery()),
        contentType == null ? "" : contentType,
        userAgent == null ? "" : userAgent,
        body);
  }

  Optional<String> param(String name) {
    return Optional.ofNullable(query.get(name));
  }

  boolean flag(String name) {
    String value = query.get(name);
    return value != null && (value.equals("true") || value.equals("1"));
  }

  private static ImmutableSortedMap<String, String> parseQuery(String raw) {
    TreeMap<String, String> params = new TreeMap<>();
    if (raw == null || raw.isEmpty()) {
      return ImmutableSortedMap.of();
    }
    // Empty pairs (a stray '&') are skipped, as Go's url.ParseQuery does.
    for (String pair : Splitter.on('&').omitEmptyStrings().split(raw)) {
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value =
          eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      params.putIfAbsent(key, value);
    }
    return ImmutableSortedMap.copyOfSorted(params);
  }
}
