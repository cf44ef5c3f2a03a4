package io.gantry.fakekube;

import com.google.gson.Gson;
import io.kubernetes.client.openapi.JSON;
import java.time.OffsetDateTime;

/**
 * protocols.md §7.1's workaround for client-java 27's strict models, installed for one test and
 * undone after: a Gson without the per-model validating adapters. The Gson is a static of {@link
 * JSON}, so this changes every ApiClient in the JVM while installed.
 */
final class RelaxedJson implements AutoCloseable {
  private final Gson previous;

  private RelaxedJson(Gson previous) {
    this.previous = previous;
  }

  static RelaxedJson install() {
    RelaxedJson installed = new RelaxedJson(JSON.getGson());
    JSON.setGson(
        JSON.createGson()
            .registerTypeAdapter(OffsetDateTime.class, new JSON.OffsetDateTimeTypeAdapter())
            .create());
    return installed;
  }

  @Override
  public void close() {
    JSON.setGson(previous);
  }
}
