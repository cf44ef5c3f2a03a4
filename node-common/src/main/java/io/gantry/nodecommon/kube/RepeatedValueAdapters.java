package io.gantry.nodecommon.kube;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.gson.JsonPrimitive;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.JSON;
import java.io.IOException;
import java.time.OffsetDateTime;
import java.util.function.Function;

/**
 * Gson adapters for the two client-java values that repeat across objects and are dear to parse:
 * {@link Quantity} ({@code "1"}, {@code "500m"}, {@code "4Gi"}: client-java's parser compiles a
 * regular expression for each one) and {@link OffsetDateTime} (creation and transition times,
 * shared by every object written in the same second). Each remembers the value it parsed for a text
 * and hands out that same instance the next time: a pod list or watch decodes each distinct text
 * once. Both values are immutable, so sharing them changes nothing a reader sees; the same text
 * always gave an equal value.
 */
final class RepeatedValueAdapters {
  /** Distinct texts remembered per type; the least recently used go first. */
  private static final int REMEMBERED = 4_096;

  private RepeatedValueAdapters() {}

  /** Quantities, parsed by client-java's own {@link Quantity#fromString}. */
  static TypeAdapter<Quantity> quantities() {
    return new Remembering<>(new Quantity.QuantityAdapter(), Quantity::fromString).nullSafe();
  }

  /** Timestamps, parsed and written by client-java's own adapter. */
  static TypeAdapter<OffsetDateTime> timestamps() {
    JSON.OffsetDateTimeTypeAdapter parser = new JSON.OffsetDateTimeTypeAdapter();
    return new Remembering<>(parser, text -> parser.fromJsonTree(new JsonPrimitive(text)))
        .nullSafe();
  }

  /**
   * Writes through {@code writer}; reads a text through {@code parse}, once per text. Nulls never
   * reach it ({@link TypeAdapter#nullSafe()}, as client-java's {@code @JsonAdapter} adapters are).
   */
  private static final class Remembering<T> extends TypeAdapter<T> {
    private final TypeAdapter<T> writer;
    private final Function<String, T> parse;
    private final Cache<String, T> parsed =
        CacheBuilder.newBuilder().maximumSize(REMEMBERED).build();

    Remembering(TypeAdapter<T> writer, Function<String, T> parse) {
      this.writer = writer;
      this.parse = parse;
    }

    @Override
    public void write(JsonWriter out, T value) throws IOException {
      writer.write(out, value);
    }

    @Override
    public T read(JsonReader in) throws IOException {
      String text = in.nextString(); // client-java's adapters read a number as its text too
      T known = parsed.getIfPresent(text);
      if (known != null) {
        return known;
      }
      T value = parse.apply(text);
      parsed.put(text, value);
      return value;
    }
  }
}
