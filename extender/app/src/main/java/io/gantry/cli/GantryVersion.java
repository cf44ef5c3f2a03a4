package io.gantry.cli;

import picocli.CommandLine;

/** The version from the jar manifest, or {@code dev} when run from classes. */
final class GantryVersion implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = GantryVersion.class.getPackage().getImplementationVersion();
    return new String[] {"gantry " + (v == null ? "dev" : v)};
  }
}
