package io.gantry.cli;

import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.crd.CrdInstaller;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gantry crds apply}: creates or replaces the CRDs Gantry reads (the chart's upgrade hook).
 */
@Command(
    name = "crds",
    mixinStandardHelpOptions = true,
    description = "The CRDs Gantry reads: KAI's Queue, PodGroup and Topology.",
    subcommands = {CrdsCommand.Apply.class})
final class CrdsCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "a subcommand is required (try: gantry crds apply)");
  }

  @Command(
      name = "apply",
      mixinStandardHelpOptions = true,
      description =
          "Create the CRDs bundled in this version of Gantry, or replace the cluster's copies"
              + " with them. Prints one line per CRD.",
      exitCodeListHeading = "%nExit status:%n",
      exitCodeList = {
        "0:every CRD is applied",
        "1:the API server refused one (the message names it)",
        "2:the cluster's configuration cannot be read"
      })
  static final class Apply implements Callable<Integer> {
    @Option(
        names = "--kubeconfig",
        paramLabel = "FILE",
        description =
            "A kubeconfig file; default: the first existing file in $KUBECONFIG, else"
                + " ~/.kube/config, else the pod's in-cluster service account.")
    Path kubeconfig;

    @CommandLine.Mixin LogFormatOptions logFormat;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      CrdInstaller installer;
      try {
        installer = new CrdInstaller(KubeClients.connect(Optional.ofNullable(kubeconfig)));
      } catch (IOException e) {
        err.println("error: cannot read the cluster configuration: " + e.getMessage());
        err.flush();
        return SimulateCommand.INVALID;
      }
      for (V1CustomResourceDefinition crd : CrdInstaller.bundled()) {
        String name = crd.getMetadata().getName();
        try {
          CrdInstaller.Outcome outcome = installer.apply(crd);
          out.println(outcome.name().toLowerCase(Locale.ROOT) + " " + name);
          out.flush();
        } catch (ApiException e) {
          err.printf(
              "error: customresourcedefinition %s: HTTP %d %s%n",
              name, e.getCode(), e.getResponseBody() == null ? "" : e.getResponseBody());
          err.flush();
          return 1;
        }
      }
      return SimulateCommand.OK;
    }
  }
}
