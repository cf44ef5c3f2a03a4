package io.gantry.dradriver.cli;

import picocli.CommandLine;

/** The version from the jar manifest, or {@code dev} when run from classes. */
final class DriverVersion implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = DriverVersion.class.getPackage().getImplementationVersion();
    return new String[] {"gantry-dra-driver " + (v == null ? "dev" : v)};
  }
}
