package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code fieldSelector} query parameter: {@code field=value}, {@code field==value}, {@code
 * field!=value}, joined by commas. As on the real server, only the field labels each resource
 * supports may be used (every resource has {@code metadata.name} and {@code metadata.namespace});
 * any other is a 400 "field label not supported". A missing field compares as the empty string, so
 * {@code spec.nodeName=} selects unbound pods.
 */
public record FieldSelector(List<Term> terms) {
  private static final ImmutableSet<String> COMMON =
      ImmutableSet.of("metadata.name", "metadata.namespace");
  private static final ImmutableMap<String, ImmutableSet<String>> BY_RESOURCE =
      ImmutableMap.of(
          "/v1/pods",
          ImmutableSet.of(
              "spec.nodeName",
              "spec.schedulerName",
              "spec.restartPolicy",
              "spec.serviceAccountName",
              "spec.hostNetwork",
              "status.phase",
              "status.podIP",
              "status.nominatedNodeName"),
          "/v1/nodes",
          ImmutableSet.of("spec.unschedulable"),
          "/v1/events",
          ImmutableSet.of(
              "involvedObject.kind",
              "involvedObject.namespace",
              "involvedObject.name",
              "involvedObject.uid",
              "involvedObject.apiVersion",
              "involvedObject.resourceVersion",
              "involvedObject.fieldPath",
              "reason",
              "reportingComponent",
              "source",
              "type"),
          "resource.k8s.io/v1/resourceslices",
          ImmutableSet.of("spec.nodeName", "spec.driver"));

  public static final FieldSelector EVERYTHING = new FieldSelector(List.of());

  public FieldSelector {
    terms = ImmutableList.copyOf(terms);
  }

  /** One term: the field, whether it must equal or differ, and the value. */
  public record Term(String field, boolean equals, String value) {
    public Term {
      requireNonNull(field, "field is null");
      requireNonNull(value, "value is null");
    }
  }

  /** Parses a selector for a kind; an unsupported field or bad syntax is a 400 Status. */
  public static FieldSelector parse(String selector, ResourceKind kind) {
    if (selector == null || selector.isBlank()) {
      return EVERYTHING;
    }
    ImmutableSet<String> supported = BY_RESOURCE.getOrDefault(kind.key(), ImmutableSet.of());
    List<Term> terms = new ArrayList<>();
    // Empty terms are skipped, as the apiserver does (k8s.io/apimachinery/pkg/fields).
    for (String part : Splitter.on(',').omitEmptyStrings().split(selector)) {
      Term term = parseTerm(part.trim(), selector);
      if (!COMMON.contains(term.field()) && !supported.contains(term.field())) {
        throw new StatusException(
            KubeStatus.badRequest("field label not supported: " + term.field()));
      }
      terms.add(term);
    }
    return new FieldSelector(terms);
  }

  public boolean matches(JsonNode object) {
    for (Term term : terms) {
      String actual = Json.text(object, term.field()).orElse("");
      if (actual.equals(term.value()) != term.equals()) {
        return false;
      }
    }
    return true;
  }

  private static Term parseTerm(String text, String whole) {
    int notEquals = text.indexOf("!=");
    if (notEquals > 0) {
      return new Term(
          text.substring(0, notEquals).trim(), false, text.substring(notEquals + 2).trim());
    }
    int doubleEquals = text.indexOf("==");
    if (doubleEquals > 0) {
      return new Term(
          text.substring(0, doubleEquals).trim(), true, text.substring(doubleEquals + 2).trim());
    }
    int equals = text.indexOf('=');
    if (equals > 0) {
      return new Term(text.substring(0, equals).trim(), true, text.substring(equals + 1).trim());
    }
    throw new StatusException(
        KubeStatus.badRequest(
            "invalid field selector \"" + whole + "\": \"" + text + "\" has no operator"));
  }
}
