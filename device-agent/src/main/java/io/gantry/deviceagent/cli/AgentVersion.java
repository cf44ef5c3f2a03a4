package io.gantry.deviceagent.cli;

import picocli.CommandLine;

/** The version from the jar manifest, or {@code dev} when run from classes. */
final class AgentVersion implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = AgentVersion.class.getPackage().getImplementationVersion();
    return new String[] {"gantry-device-agent " + (v == null ? "dev" : v)};
  }
}
