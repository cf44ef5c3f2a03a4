package io.gantry.nodecommon.nvidiasmi;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Reads values out of one element of nvidia-smi's XML by slash-separated child paths ({@code
 * fb_memory_usage/total}). nvidia-smi marks an unknown value as {@code N/A}, {@code [N/A]}, {@code
 * Not Supported} or an empty body; {@link #optional} treats those like a missing element. A value
 * that is present but malformed fails with a message naming the element and the path.
 */
final class XmlFields {
  private static final Set<String> ABSENT =
      new TreeSet<>(List.of("", "n/a", "[n/a]", "not supported", "[not supported]"));
  private static final Pattern MIB = Pattern.compile("(\\d+)\\s*MiB");

  private final Element element;
  private final String context;

  /**
   * @param context how messages name the element, for example "nvidia-smi -q -x: gpu
   *     00000000:53:00.0"
   */
  XmlFields(Element element, String context) {
    this.element = requireNonNull(element, "element is null");
    this.context = requireNonNull(context, "context is null");
  }

  String context() {
    return context;
  }

  /** The trimmed text at {@code path}; empty when the element is missing or says N/A. */
  Optional<String> optional(String path) {
    return child(path)
        .map(e -> e.getTextContent().strip())
        .filter(t -> !ABSENT.contains(t.toLowerCase(Locale.ROOT)));
  }

  /** The text at {@code path}, which must be present and not N/A. */
  String required(String path) throws NvidiaSmiException {
    Optional<String> value = optional(path);
    if (value.isEmpty()) {
      throw failure(path, child(path).isPresent() ? "is N/A, a value is required" : "is missing");
    }
    return value.get();
  }

  /** A non-negative integer at {@code path}, which must be present. */
  int requiredInt(String path) throws NvidiaSmiException {
    return parseInt(path, required(path));
  }

  /** A non-negative integer at {@code path}, or empty when missing or N/A. */
  OptionalInt optionalInt(String path) throws NvidiaSmiException {
    Optional<String> value = optional(path);
    return value.isEmpty() ? OptionalInt.empty() : OptionalInt.of(parseInt(path, value.get()));
  }

  /** A memory size written as {@code <n> MiB} at {@code path}, which must be present. */
  long requiredMib(String path) throws NvidiaSmiException {
    String value = required(path);
    Matcher m = MIB.matcher(value);
    if (!m.matches()) {
      throw failure(path, "expected '<number> MiB', got '" + value + "'");
    }
    try {
      return Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      throw failure(path, "expected '<number> MiB', got '" + value + "'");
    }
  }

  /** The child elements named {@code name} of the element at {@code path}, in document order. */
  List<Element> children(String path, String name) {
    List<Element> found = new ArrayList<>();
    Optional<Element> parent = path.isEmpty() ? Optional.of(element) : child(path);
    if (parent.isEmpty()) {
      return found;
    }
    for (Node n = parent.get().getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        found.add(e);
      }
    }
    return found;
  }

  /** A failure at {@code path} of this element. */
  NvidiaSmiException failure(String path, String problem) {
    return new NvidiaSmiException(
        NvidiaSmiException.Reason.UNPARSEABLE, context + ": " + path + ": " + problem);
  }

  private int parseInt(String path, String value) throws NvidiaSmiException {
    try {
      int n = Integer.parseInt(value);
      if (n < 0) {
        throw failure(path, "expected a non-negative integer, got '" + value + "'");
      }
      return n;
    } catch (NumberFormatException e) {
      throw failure(path, "expected an integer, got '" + value + "'");
    }
  }

  private Optional<Element> child(String path) {
    Element current = element;
    for (String name : path.split("/", -1)) {
      Element next = null;
      for (Node n = current.getFirstChild(); n != null; n = n.getNextSibling()) {
        if (n instanceof Element e && e.getTagName().equals(name)) {
          next = e;
          break;
        }
      }
      if (next == null) {
        return Optional.empty();
      }
      current = next;
    }
    return Optional.of(current);
  }
}
