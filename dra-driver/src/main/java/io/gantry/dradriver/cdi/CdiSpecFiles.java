package io.gantry.dradriver.cdi;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The driver's CDI spec files in one directory (the runtime's dynamic directory, {@code
 * /var/run/cdi} by default): one file per claim, {@code k8s.gpu.gantry.io-claim_<claim UID>.json}.
 * A file is written to a temporary name that runtimes ignore (no {@code .json} suffix) and renamed
 * into place, so a runtime never reads half a spec.
 */
public final class CdiSpecFiles {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Path directory;

  public CdiSpecFiles(Path directory) {
    this.directory = requireNonNull(directory, "directory is null");
  }

  /** The file of the claim with UID {@code claimUid}. */
  public Path fileOf(String claimUid) {
    return directory.resolve("k8s.gpu.gantry.io-claim_" + claimUid + ".json");
  }

  /** Writes (or replaces) the claim's spec; returns its path. */
  public Path write(String claimUid, CdiSpec spec) throws IOException {
    Files.createDirectories(directory);
    Path file = fileOf(claimUid);
    Path temporary = directory.resolve("." + file.getFileName() + ".tmp");
    Files.writeString(temporary, MAPPER.writeValueAsString(spec) + "\n", StandardCharsets.UTF_8);
    try {
      Files.move(
          temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
    }
    return file;
  }

  /** Removes the claim's spec; true when there was one. */
  public boolean delete(String claimUid) throws IOException {
    return Files.deleteIfExists(fileOf(claimUid));
  }
}
