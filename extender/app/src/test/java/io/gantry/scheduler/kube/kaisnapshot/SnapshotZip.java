package io.gantry.scheduler.kube.kaisnapshot;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** A KAI snapshot file built in a test: {@code snapshot.json} as KAI's /get-snapshot writes it. */
final class SnapshotZip {
  static final ObjectMapper JSON = new ObjectMapper();

  final ObjectNode root = JSON.createObjectNode();

  SnapshotZip() {
    root.putObject("config").put("Actions", "allocate, consolidation, reclaim, preempt");
    root.putObject("schedulerParams").put("SchedulerName", "kai-scheduler");
    root.putObject("rawObjects");
  }

  /** Adds {@code object} to {@code rawObjects.<list>}. */
  SnapshotZip add(String list, ObjectNode object) {
    ObjectNode raw = (ObjectNode) root.get("rawObjects");
    ArrayNode items = raw.has(list) ? (ArrayNode) raw.get(list) : raw.putArray(list);
    items.add(object);
    return this;
  }

  Path write(Path file) throws IOException {
    return write(file, root.toString());
  }

  /** A ZIP holding {@code snapshot.json} with this text. */
  static Path write(Path file, String json) throws IOException {
    try (OutputStream out = Files.newOutputStream(file);
        ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry("snapshot.json"));
      zip.write(json.getBytes(UTF_8));
      zip.closeEntry();
    }
    return file;
  }
}
