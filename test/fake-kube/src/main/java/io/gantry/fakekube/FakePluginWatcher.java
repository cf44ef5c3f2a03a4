package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.gantry.proto.dra.v1.DraPluginV1Proto.Claim;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodePrepareResourcesRequest;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodePrepareResourcesResponse;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodeUnprepareResourcesRequest;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodeUnprepareResourcesResponse;
import io.gantry.proto.pluginregistration.v1.InfoRequest;
import io.gantry.proto.pluginregistration.v1.PluginInfo;
import io.gantry.proto.pluginregistration.v1.RegistrationGrpc;
import io.gantry.proto.pluginregistration.v1.RegistrationStatus;
import io.gantry.proto.uds.UnixSocketChannels;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's plugin watcher and DRA manager, for DRA driver tests over real Unix sockets
 * (protocols.md §3.1–3.3). It scans the plugin registry directory (the kubelet uses inotify; this
 * polls every 50 ms) for sockets whose names do not start with {@code .}; for a new socket, or a
 * socket file replaced by a new one, it dials it, calls {@code GetInfo}, checks it as the kubelet
 * does (type {@code DRAPlugin}, a name, an endpoint that exists, a DRAPlugin version it speaks) and
 * answers {@code NotifyRegistrationStatus}. A removed socket unregisters the driver. {@link
 * #prepare} and {@link #unprepare} are the kubelet's calls when a pod starts and after it is gone,
 * made on the version the kubelet picked: the first of {@link #KUBELET_VERSIONS} that the driver
 * advertises (a {@code v1beta1} answer is read as {@code v1}: the two have the same fields).
 */
public final class FakePluginWatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FakePluginWatcher.class);
  private static final long DEADLINE_SECONDS = 45;

  /** The DRAPlugin services a 1.34 kubelet speaks, in the order it prefers them. */
  public static final ImmutableList<String> KUBELET_VERSIONS =
      ImmutableList.of("v1.DRAPlugin", "v1beta1.DRAPlugin");

  /** One registration the kubelet accepted: the driver's info and the version picked. */
  public record Registration(String socketFile, PluginInfo info, String version) {
    public Registration {
      requireNonNull(socketFile, "socketFile is null");
      requireNonNull(info, "info is null");
      requireNonNull(version, "version is null");
    }
  }

  /** A registration the kubelet refused, with the error it notified. */
  public record Refusal(String socketFile, String error) {
    public Refusal {
      requireNonNull(socketFile, "socketFile is null");
      requireNonNull(error, "error is null");
    }
  }

  private final Path registry;
  private final List<String> kubeletVersions;
  private final ScheduledExecutorService scanner;
  private final Object lock = new Object();
  private final Map<String, Object> seen = new HashMap<>();
  private final Map<String, Registration> active = new TreeMap<>();
  private final List<Registration> history = new ArrayList<>();
  private final List<Refusal> refusals = new ArrayList<>();

  private FakePluginWatcher(Path registry, List<String> kubeletVersions) {
    this.registry = requireNonNull(registry, "registry is null");
    this.kubeletVersions = ImmutableList.copyOf(kubeletVersions);
    this.scanner =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "fake-plugin-watcher");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Watches {@code registry} as a 1.34 kubelet (DRAPlugin v1, then v1beta1). */
  public static FakePluginWatcher start(Path registry) {
    return start(registry, KUBELET_VERSIONS);
  }

  /** Watches {@code registry} as a kubelet that speaks {@code kubeletVersions} (in preference). */
  public static FakePluginWatcher start(Path registry, List<String> kubeletVersions) {
    FakePluginWatcher watcher = new FakePluginWatcher(registry, kubeletVersions);
    ScheduledFuture<?> unused =
        watcher.scanner.scheduleWithFixedDelay(watcher::scan, 0, 50, TimeUnit.MILLISECONDS);
    return watcher;
  }

  /** The driver registered under {@code driverName} now, if any. */
  public Optional<Registration> registered(String driverName) {
    synchronized (lock) {
      return Optional.ofNullable(active.get(driverName));
    }
  }

  /** Every registration accepted so far, in order (a re-registration is listed again). */
  public List<Registration> registrations() {
    synchronized (lock) {
      return ImmutableList.copyOf(history);
    }
  }

  /** Every registration refused so far, in order. */
  public List<Refusal> refusals() {
    synchronized (lock) {
      return ImmutableList.copyOf(refusals);
    }
  }

  /**
   * {@code NodePrepareResources} for {@code claims}, as the kubelet calls it before starting a pod.
   *
   * @throws IllegalStateException when no driver {@code driverName} is registered
   * @throws io.grpc.StatusRuntimeException the call's error
   */
  public NodePrepareResourcesResponse prepare(String driverName, List<Claim> claims) {
    NodePrepareResourcesRequest request =
        NodePrepareResourcesRequest.newBuilder().addAllClaims(claims).build();
    return call(
        driverName,
        channel -> v1(channel).nodePrepareResources(request),
        channel ->
            v1beta1(channel)
                .nodePrepareResources(
                    io.gantry.proto.dra.v1beta1.DraPluginV1beta1Proto.NodePrepareResourcesRequest
                        .parseFrom(request.toByteString()))
                .toByteString(),
        NodePrepareResourcesResponse::parseFrom);
  }

  /**
   * {@code NodeUnprepareResources} for {@code claims}, as the kubelet calls it after a pod is gone.
   *
   * @throws IllegalStateException when no driver {@code driverName} is registered
   * @throws io.grpc.StatusRuntimeException the call's error
   */
  public NodeUnprepareResourcesResponse unprepare(String driverName, List<Claim> claims) {
    NodeUnprepareResourcesRequest request =
        NodeUnprepareResourcesRequest.newBuilder().addAllClaims(claims).build();
    return call(
        driverName,
        channel -> v1(channel).nodeUnprepareResources(request),
        channel ->
            v1beta1(channel)
                .nodeUnprepareResources(
                    io.gantry.proto.dra.v1beta1.DraPluginV1beta1Proto.NodeUnprepareResourcesRequest
                        .parseFrom(request.toByteString()))
                .toByteString(),
        NodeUnprepareResourcesResponse::parseFrom);
  }

  /** One call on a fresh channel to the driver's endpoint, on the version the kubelet picked. */
  private interface Call<T> {
    T on(ManagedChannel channel) throws InvalidProtocolBufferException;
  }

  /** Reads a v1beta1 answer's bytes as the v1 message with the same fields. */
  private interface AsV1<T> {
    T parse(ByteString bytes) throws InvalidProtocolBufferException;
  }

  private <T> T call(String driverName, Call<T> v1, Call<ByteString> v1beta1, AsV1<T> asV1) {
    Registration driver =
        registered(driverName)
            .orElseThrow(
                () -> new IllegalStateException("no DRA driver " + driverName + " registered"));
    ManagedChannel channel = UnixSocketChannels.dial(Path.of(driver.info().getEndpoint()));
    try {
      return driver.version().equals("v1.DRAPlugin")
          ? v1.on(channel)
          : asV1.parse(v1beta1.on(channel));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("v1beta1 and v1 messages differ on the wire", e);
    } finally {
      channel.shutdownNow();
    }
  }

  private static io.gantry.proto.dra.v1.DRAPluginGrpc.DRAPluginBlockingStub v1(
      ManagedChannel channel) {
    return io.gantry.proto.dra.v1.DRAPluginGrpc.newBlockingStub(channel)
        .withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
  }

  private static io.gantry.proto.dra.v1beta1.DRAPluginGrpc.DRAPluginBlockingStub v1beta1(
      ManagedChannel channel) {
    return io.gantry.proto.dra.v1beta1.DRAPluginGrpc.newBlockingStub(channel)
        .withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    scanner.shutdownNow();
    try {
      scanner.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void scan() {
    Map<String, Object> now = new HashMap<>();
    try (Stream<Path> files = Files.list(registry)) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString();
        if (!name.startsWith(".") && !Files.isDirectory(file) && !Files.isRegularFile(file)) {
          now.put(name, Files.readAttributes(file, BasicFileAttributes.class).fileKey());
        }
      }
    } catch (IOException e) {
      log.debug("cannot list {}: {}", registry, e.getMessage());
      return;
    }
    for (String gone : new ArrayList<>(seen.keySet())) {
      if (!now.containsKey(gone)) {
        seen.remove(gone);
        synchronized (lock) {
          active.values().removeIf(r -> r.socketFile().equals(gone));
        }
        log.info("plugin socket {} removed: driver unregistered", gone);
      }
    }
    for (Map.Entry<String, Object> e : now.entrySet()) {
      // A socket that does not answer yet is tried again on the next scan.
      if (!Objects.equals(seen.get(e.getKey()), e.getValue()) && register(e.getKey())) {
        seen.put(e.getKey(), e.getValue());
      }
    }
  }

  /** Registers the plugin on {@code socketFile}; false when it could not be asked. */
  private boolean register(String socketFile) {
    ManagedChannel channel = UnixSocketChannels.dial(registry.resolve(socketFile));
    try {
      RegistrationGrpc.RegistrationBlockingStub plugin =
          RegistrationGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
      PluginInfo info;
      try {
        info = plugin.getInfo(InfoRequest.getDefaultInstance());
      } catch (RuntimeException e) {
        log.debug("GetInfo on {} failed: {}", socketFile, e.getMessage());
        return false;
      }
      Optional<String> version =
          kubeletVersions.stream().filter(info.getSupportedVersionsList()::contains).findFirst();
      Optional<String> refusal = refusal(info, version);
      synchronized (lock) {
        if (refusal.isPresent()) {
          refusals.add(new Refusal(socketFile, refusal.get()));
        } else {
          Registration registration = new Registration(socketFile, info, version.orElseThrow());
          active.put(info.getName(), registration);
          history.add(registration);
        }
      }
      try {
        plugin.notifyRegistrationStatus(
            RegistrationStatus.newBuilder()
                .setPluginRegistered(refusal.isEmpty())
                .setError(refusal.orElse(""))
                .build());
      } catch (RuntimeException e) {
        // A plugin answers a refusal with an error, as the kubelet's helper does.
        log.debug("NotifyRegistrationStatus on {}: {}", socketFile, e.getMessage());
      }
      return true;
    } finally {
      channel.shutdownNow();
    }
  }

  /** The kubelet's checks of a DRA plugin's info. */
  private Optional<String> refusal(PluginInfo info, Optional<String> version) {
    if (!info.getType().equals("DRAPlugin")) {
      return Optional.of("no handler registered for plugin type: " + info.getType());
    }
    if (info.getName().isEmpty()) {
      return Optional.of("plugin name is empty");
    }
    if (!Files.exists(Path.of(info.getEndpoint()))) {
      return Optional.of("DRA plugin endpoint " + info.getEndpoint() + " does not exist");
    }
    if (version.isEmpty()) {
      return Optional.of(
          "none of the versions supported by the plugin "
              + info.getSupportedVersionsList()
              + " are supported by the kubelet "
              + kubeletVersions);
    }
    return Optional.empty();
  }
}
