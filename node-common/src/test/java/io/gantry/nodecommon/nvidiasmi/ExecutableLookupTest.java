package io.gantry.nodecommon.nvidiasmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecutableLookupTest {
  @TempDir Path tmp;

  private Path file(String dir, String name, String permissions) throws Exception {
    Path d = Files.createDirectories(tmp.resolve(dir));
    Path f = Files.writeString(d.resolve(name), "#!/bin/sh\n");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(permissions));
    return f;
  }

  @Test
  void searchesPathInOrderSkippingFilesThatCannotRun() throws Exception {
    file("a", "nvidia-smi", "rw-r--r--");
    Path b = file("b", "nvidia-smi", "rwxr-xr-x");
    file("c", "nvidia-smi", "rwxr-xr-x");
    String path =
        tmp.resolve("missing")
            + ":"
            + tmp.resolve("a")
            + ":"
            + tmp.resolve("b")
            + ":"
            + tmp.resolve("c");

    assertThat(ExecutableLookup.find("nvidia-smi", path)).contains(b);
  }

  @Test
  void aNameNotOnPathIsNotFound() {
    assertThat(ExecutableLookup.find("nvidia-smi", tmp.toString())).isEmpty();
    assertThat(ExecutableLookup.find("nvidia-smi", null)).isEmpty();
    assertThat(ExecutableLookup.find("", tmp.toString())).isEmpty();
  }

  @Test
  void aNameWithASlashIsAPathAndPathIsNotSearched() throws Exception {
    Path f = file("bin", "smi", "rwxr-xr-x");

    assertThat(ExecutableLookup.find(f.toString(), "")).contains(f);
    assertThat(
            ExecutableLookup.find(
                tmp.resolve("bin/other").toString(), tmp.resolve("bin").toString()))
        .isEmpty();
    assertThat(ExecutableLookup.find(tmp.resolve("bin").toString(), ""))
        .as("a directory")
        .isEmpty();
  }
}
