package io.gantry.nodecommon.kube;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.VersionApi;
import java.io.IOException;
import java.time.Duration;

/**
 * Waits at start for the API server to answer {@code GET /version}, so a command that cannot reach
 * its cluster says so in one line (the address and the cause) instead of starting informers that
 * fail forever. Any HTTP answer counts as reached, except 401: then the credentials are wrong, and
 * waiting does not help.
 */
public final class ApiServerProbe {
  private static final Duration RETRY = Duration.ofMillis(500);

  private ApiServerProbe() {}

  /**
   * Returns once {@code client}'s server answers, trying for at most {@code timeout}.
   *
   * @throws ApiServerUnavailableException naming the server and the last cause when it did not
   *     answer in time, or when it answered 401 (the credentials are refused)
   * @throws IOException when the wait was interrupted
   */
  public static void awaitReachable(ApiClient client, Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    VersionApi version = new VersionApi(client);
    while (true) {
      ApiException last;
      try {
        version.getCode().execute();
        return;
      } catch (ApiException e) {
        if (e.getCode() == 401) {
          throw new ApiServerUnavailableException(
              "the API server " + client.getBasePath() + " rejects the credentials (HTTP 401)", e);
        }
        if (e.getCode() != 0) {
          return;
        }
        last = e;
      }
      if (System.nanoTime() + RETRY.toNanos() > deadline) {
        throw new ApiServerUnavailableException(
            "cannot reach the API server "
                + client.getBasePath()
                + " within "
                + seconds(timeout)
                + ": "
                + ApiErrors.describe(last),
            last);
      }
      try {
        Thread.sleep(RETRY.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("stopped while waiting for " + client.getBasePath(), e);
      }
    }
  }

  private static String seconds(Duration timeout) {
    return timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + "s" : timeout.toMillis() + "ms";
  }
}
