package io.gantry.dradriver;

import static java.util.Objects.requireNonNull;

import io.gantry.dradriver.cdi.CdiSpecFiles;
import io.gantry.dradriver.devices.CurrentDevices;
import io.gantry.dradriver.devices.SliceDevice;
import io.gantry.dradriver.devices.SliceDevices;
import io.gantry.dradriver.grpc.DraPluginV1Service;
import io.gantry.dradriver.grpc.DraPluginV1beta1Service;
import io.gantry.dradriver.grpc.PluginRegistrationService;
import io.gantry.dradriver.metrics.DraDriverMetrics;
import io.gantry.dradriver.prepare.Checkpoint;
import io.gantry.dradriver.prepare.ClaimPreparer;
import io.gantry.dradriver.prepare.ClaimReader;
import io.gantry.dradriver.slices.ResourceSlicePublisher;
import io.gantry.nodecommon.discovery.GpuDiscovery;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException;
import io.gantry.proto.uds.UnixSocketServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.ResourceV1Api;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running driver: takes the GPU inventory, publishes the node's ResourceSlice, serves the DRA
 * service (v1 and v1beta1) and then the registration socket the kubelet's plugin watcher finds;
 * every discovery interval it takes the inventory again and republishes when the devices changed
 * (or the last publication failed). {@link #close()} removes the registration socket first, so the
 * kubelet stops calling before the DRA socket goes. Publications, the kubelet's calls and CDI spec
 * writes are counted in {@link DraDriverMetrics}.
 */
public final class DraDriver implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DraDriver.class);

  private final GpuDiscovery discovery;
  private final CurrentDevices devices;
  private final ResourceSlicePublisher publisher;
  private final DraDriverMetrics metrics;
  private final ScheduledExecutorService loop;
  private final PluginRegistrationService registration;
  private UnixSocketServer draServer;
  private UnixSocketServer registrationServer;
  private boolean publishedCurrent;

  private DraDriver(
      GpuDiscovery discovery,
      CurrentDevices devices,
      ResourceSlicePublisher publisher,
      DraDriverMetrics metrics,
      PluginRegistrationService registration) {
    this.discovery = discovery;
    this.devices = devices;
    this.publisher = publisher;
    this.metrics = metrics;
    this.registration = registration;
    this.loop =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "dra-driver-discovery");
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * Starts the driver for {@code node}.
   *
   * @throws NvidiaSmiException when the first inventory cannot be taken
   * @throws IOException when the checkpoint cannot be read or a socket cannot be served
   */
  public static DraDriver start(
      String node,
      DriverPaths paths,
      GpuDiscovery discovery,
      ApiClient api,
      Duration discoveryInterval,
      DraDriverMetrics metrics)
      throws NvidiaSmiException, IOException {
    requireNonNull(node, "node is null");
    requireNonNull(metrics, "metrics is null");
    requireNonNull(paths, "paths is null");
    requireNonNull(discoveryInterval, "discoveryInterval is null");
    Checkpoint checkpoint = Checkpoint.load(paths.checkpointFile());
    CurrentDevices devices = new CurrentDevices();
    devices.replace(SliceDevices.of(discovery.discover()));
    ResourceV1Api resources = new ResourceV1Api(api);
    DraDriver driver =
        new DraDriver(
            discovery,
            devices,
            new ResourceSlicePublisher(resources, new CoreV1Api(api), node),
            metrics,
            new PluginRegistrationService(paths.draSocket()));
    driver.publish();
    ClaimPreparer preparer =
        new ClaimPreparer(
            node,
            devices,
            new ClaimReader(resources),
            new CdiSpecFiles(paths.cdiDirectory()),
            checkpoint,
            metrics);
    DraPluginV1Service v1 = new DraPluginV1Service(preparer, metrics);
    try {
      Files.createDirectories(paths.pluginDirectory());
      Files.createDirectories(paths.pluginRegistryDirectory());
      driver.draServer =
          UnixSocketServer.start(paths.draSocket(), List.of(v1, new DraPluginV1beta1Service(v1)));
      driver.registrationServer =
          UnixSocketServer.start(paths.registrationSocket(), List.of(driver.registration));
    } catch (IOException e) {
      driver.close();
      throw e;
    }
    long seconds = discoveryInterval.toSeconds();
    ScheduledFuture<?> unused =
        driver.loop.scheduleWithFixedDelay(driver::rediscover, seconds, seconds, TimeUnit.SECONDS);
    log.info(
        "{} serving on {} (registration {}), {} GPUs",
        DriverNames.DRIVER,
        paths.draSocket(),
        paths.registrationSocket(),
        devices.all().size());
    return driver;
  }

  /** Whether the kubelet has said it registered the driver. */
  public boolean registered() {
    return registration.registered();
  }

  private void rediscover() {
    try {
      if (devices.replace(SliceDevices.of(discovery.discover()))) {
        log.info("the node's GPUs changed: {} now", devices.all().size());
        publishedCurrent = false;
      }
    } catch (NvidiaSmiException e) {
      log.warn("GPU discovery failed, keeping the last devices: {}", e.getMessage());
    }
    if (!publishedCurrent) {
      publish();
    }
  }

  private void publish() {
    try {
      List<SliceDevice> published = devices.all();
      long generation = publisher.publish(published);
      metrics.published(published.size(), generation);
      publishedCurrent = true;
    } catch (ApiException e) {
      metrics.publicationFailed();
      publishedCurrent = false;
      log.warn(
          "cannot publish the ResourceSlice (HTTP {}), retrying next interval: {}",
          e.getCode(),
          e.getResponseBody());
    }
  }

  @Override
  public void close() {
    loop.shutdownNow();
    if (registrationServer != null) {
      registrationServer.close();
    }
    if (draServer != null) {
      draServer.close();
    }
  }
}
