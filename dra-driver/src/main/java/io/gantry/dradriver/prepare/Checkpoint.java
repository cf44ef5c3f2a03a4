package io.gantry.dradriver.prepare;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The claims this node has prepared, by claim UID, in a JSON file that outlives the driver process
 * (kept under the driver's plugin directory on the host). Every change is written to a temporary
 * file and renamed over the checkpoint, so a crash leaves the old or the new state, never half of
 * one. Not thread-safe: {@link ClaimPreparer} serialises its calls.
 */
public final class Checkpoint {
  /** The file's format version; a file with another version is refused rather than misread. */
  static final int VERSION = 1;

  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  @JsonPropertyOrder({"version", "claims"})
  record Content(int version, Map<String, PreparedClaim> claims) {
    Content {
      claims = new TreeMap<>(requireNonNull(claims, "claims is null"));
    }
  }

  private final Path file;
  private final TreeMap<String, PreparedClaim> claims;

  private Checkpoint(Path file, Map<String, PreparedClaim> claims) {
    this.file = file;
    this.claims = new TreeMap<>(claims);
  }

  /**
   * The checkpoint in {@code file}, empty when the file does not exist yet.
   *
   * @throws IOException when the file cannot be read or is not a checkpoint of this version (the
   *     message names the file)
   */
  public static Checkpoint load(Path file) throws IOException {
    requireNonNull(file, "file is null");
    if (!Files.exists(file)) {
      return new Checkpoint(file, Map.of());
    }
    Content content;
    try {
      content = MAPPER.readValue(file.toFile(), Content.class);
    } catch (IOException e) {
      throw new IOException("cannot read the checkpoint " + file + ": " + e.getMessage(), e);
    }
    if (content.version() != VERSION) {
      throw new IOException(
          "checkpoint "
              + file
              + " has version "
              + content.version()
              + ", this driver reads version "
              + VERSION);
    }
    return new Checkpoint(file, content.claims());
  }

  /** The claims recorded. */
  public int size() {
    return claims.size();
  }

  public Optional<PreparedClaim> get(String claimUid) {
    return Optional.ofNullable(claims.get(claimUid));
  }

  /** Records {@code claim} and writes the file. */
  public void put(PreparedClaim claim) throws IOException {
    TreeMap<String, PreparedClaim> next = new TreeMap<>(claims);
    next.put(claim.uid(), claim);
    save(next);
    claims.put(claim.uid(), claim);
  }

  /** Forgets the claim and writes the file; nothing happens when it is not recorded. */
  public void remove(String claimUid) throws IOException {
    if (!claims.containsKey(claimUid)) {
      return;
    }
    TreeMap<String, PreparedClaim> next = new TreeMap<>(claims);
    next.remove(claimUid);
    save(next);
    claims.remove(claimUid);
  }

  private void save(Map<String, PreparedClaim> content) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    Path temporary = parent.resolve(file.getFileName() + ".tmp");
    Files.writeString(
        temporary,
        MAPPER.writeValueAsString(new Content(VERSION, content)) + "\n",
        StandardCharsets.UTF_8);
    try {
      Files.move(
          temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
