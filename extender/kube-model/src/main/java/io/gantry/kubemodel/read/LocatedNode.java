package io.gantry.kubemodel.read;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * A YAML value that remembers the line it starts on. The loader binds these to the spec records by
 * hand, so unknown fields, type errors and semantic errors can all name an exact line.
 */
public sealed interface LocatedNode
    permits LocatedNode.MapNode, LocatedNode.ListNode, LocatedNode.ScalarNode {
  int line();

  /** A key of a mapping, the line the key is on, and its value. */
  record Entry(String key, int keyLine, LocatedNode value) {
    public Entry {
      requireNonNull(key, "key is null");
      requireNonNull(value, "value is null");
    }
  }

  /** A mapping, its entries in file order. */
  record MapNode(int line, ImmutableList<Entry> entries) implements LocatedNode {
    public MapNode {
      requireNonNull(entries, "entries is null");
    }
  }

  record ListNode(int line, ImmutableList<LocatedNode> items) implements LocatedNode {
    public ListNode {
      requireNonNull(items, "items is null");
    }
  }

  /** How YAML typed a plain scalar; quoted scalars are always strings. */
  enum ScalarKind {
    STRING,
    INTEGER,
    FLOAT,
    TRUE,
    FALSE,
    NULL
  }

  /**
   * A scalar: its text as written and, for integers and finite floats, its exact value (YAML
   * spellings such as {@code 0x10} or {@code 1_000} are already decoded).
   */
  record ScalarNode(int line, ScalarKind kind, String text, Optional<BigDecimal> number)
      implements LocatedNode {
    public ScalarNode {
      requireNonNull(kind, "kind is null");
      requireNonNull(text, "text is null");
      requireNonNull(number, "number is null");
    }

    boolean isNull() {
      return kind == ScalarKind.NULL;
    }
  }
}
