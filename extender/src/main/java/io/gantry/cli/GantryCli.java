package io.gantry.cli;

public final class GantryCli {
  public static void main(String[] args) {}
}
