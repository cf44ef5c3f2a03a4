package io.gantry.cli;

import io.gantry.nodecommon.cli.LogFormatOptions;
import io.gantry.nodecommon.kube.ApiErrors;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.crd.CrdInstaller;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

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
        "1:the API server refused one, or stopped answering (the message names it)",
        "2:the cluster's configuration cannot be read, or its API server does not answer within"
            + " --startup-timeout"
      })
  static final class Apply implements Callable<Integer> {
    @CommandLine.Mixin ConnectionOptions connection = new ConnectionOptions();

    @CommandLine.Mixin LogFormatOptions logFormat;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      ApiClient client;
      try {
        client =
            KubeClients.connect(connection.access(), connection.startupTimeout(spec.commandLine()));
      } catch (IOException e) {
        return ClusterErrors.report(e, err);
      }
      CrdInstaller installer = new CrdInstaller(client);
      for (V1CustomResourceDefinition crd : CrdInstaller.bundled()) {
        String name = crd.getMetadata().getName();
        try {
          CrdInstaller.Outcome outcome = installer.apply(crd);
          out.println(outcome.name().toLowerCase(Locale.ROOT) + " " + name);
          out.flush();
        } catch (ApiException e) {
          if (ApiErrors.unanswered(e)) {
            // client-java's code 0: no HTTP answer at all, so the network cause is the news
            err.printf(
                "error: customresourcedefinition %s: cannot reach the API server %s: %s%n",
                name, client.getBasePath(), ApiErrors.describe(e));
            err.flush();
            return 1;
          }
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
