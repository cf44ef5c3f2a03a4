package io.gantry.nodecommon.cli;

import java.util.concurrent.CountDownLatch;
import sun.misc.Signal;

/**
 * A graceful stop on SIGTERM (what Kubernetes sends) and SIGINT (Ctrl-C): the signal counts a latch
 * down and the command, which waits on it, stops its parts and returns 0. By default the JVM runs
 * its shutdown hooks and exits 143 on SIGTERM, cutting off whatever the hooks have not done;
 * handling the signal instead lets the command finish its stop on its own thread and exit 0, as the
 * docs promise. {@code sun.misc.Signal} is the JDK's only signal API (module jdk.unsupported).
 */
public final class StopSignal {
  private StopSignal() {}

  /** From now on SIGTERM and SIGINT count {@code stopped} down instead of ending the JVM. */
  public static void countDownOnStop(CountDownLatch stopped) {
    Signal.handle(new Signal("TERM"), signal -> stopped.countDown());
    Signal.handle(new Signal("INT"), signal -> stopped.countDown());
  }
}
