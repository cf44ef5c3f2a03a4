package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * One list response: the items of a listing after a {@code continue} token, at most {@code limit}
 * of them, written as the API server writes a {@code <Kind>List}. When items remain, the metadata
 * carries the token of the page's last item and how many remain.
 */
record ListPage(
    ResourceKind kind,
    long resourceVersion,
    ImmutableList<ObjectNode> items,
    Optional<String> continueToken,
    int remainingItemCount) {
  ListPage {
    requireNonNull(kind, "kind is null");
    requireNonNull(items, "items is null");
    requireNonNull(continueToken, "continueToken is null");
  }

  /**
   * The page of the listing after {@code continueFrom} (empty: from the start) with at most {@code
   * limitItems} items (0: all); a malformed token is a 400 Status.
   */
  static ListPage of(
      ResourceKind kind,
      ObjectStore.Listing listing,
      Optional<String> continueFrom,
      long limitItems) {
    ImmutableList<ObjectNode> all = listing.items();
    int start = continueFrom.map(token -> after(all, token)).orElse(0);
    int end = limitItems > 0 ? (int) Math.min(all.size(), start + limitItems) : all.size();
    Optional<String> next =
        end < all.size() ? Optional.of(token(all.get(end - 1))) : Optional.empty();
    return new ListPage(
        kind, listing.resourceVersion(), all.subList(start, end), next, all.size() - end);
  }

  /** Writes the page as one JSON object: kind, apiVersion, metadata, items. */
  void writeTo(JsonGenerator json) throws IOException {
    json.writeStartObject();
    json.writeStringField("kind", kind.listKind());
    json.writeStringField("apiVersion", kind.apiVersion());
    json.writeObjectFieldStart("metadata");
    json.writeStringField("resourceVersion", Long.toString(resourceVersion));
    if (continueToken.isPresent()) {
      json.writeStringField("continue", continueToken.get());
      json.writeNumberField("remainingItemCount", remainingItemCount);
    }
    json.writeEndObject();
    json.writeArrayFieldStart("items");
    for (ObjectNode item : items) {
      json.writeTree(item);
    }
    json.writeEndArray();
    json.writeEndObject();
  }

  private static String token(ObjectNode last) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(key(last).getBytes(StandardCharsets.UTF_8));
  }

  private static int after(List<ObjectNode> items, String token) {
    String key;
    try {
      key = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new StatusException(KubeStatus.badRequest("continue key is not valid: " + token));
    }
    for (int i = 0; i < items.size(); i++) {
      if (key(items.get(i)).compareTo(key) > 0) {
        return i;
      }
    }
    return items.size();
  }

  private static String key(ObjectNode object) {
    return Json.namespace(object) + "\u0000" + Json.name(object);
  }
}
