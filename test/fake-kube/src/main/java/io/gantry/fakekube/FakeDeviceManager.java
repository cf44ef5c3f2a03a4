package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.proto.deviceplugin.v1beta1.AllocateRequest;
import io.gantry.proto.deviceplugin.v1beta1.AllocateResponse;
import io.gantry.proto.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.gantry.proto.deviceplugin.v1beta1.ContainerPreferredAllocationRequest;
import io.gantry.proto.deviceplugin.v1beta1.Device;
import io.gantry.proto.deviceplugin.v1beta1.DevicePluginGrpc;
import io.gantry.proto.deviceplugin.v1beta1.DevicePluginOptions;
import io.gantry.proto.deviceplugin.v1beta1.Empty;
import io.gantry.proto.deviceplugin.v1beta1.ListAndWatchResponse;
import io.gantry.proto.deviceplugin.v1beta1.PreferredAllocationRequest;
import io.gantry.proto.deviceplugin.v1beta1.RegisterRequest;
import io.gantry.proto.deviceplugin.v1beta1.RegistrationGrpc;
import io.gantry.proto.uds.UnixSocketChannels;
import io.gantry.proto.uds.UnixSocketServer;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's device manager, for device plugin tests over real Unix sockets (protocols.md §2.4).
 * It serves {@code v1beta1.Registration} on {@code <dir>/kubelet.sock}; on {@code Register} it
 * checks the version and resource name as the kubelet does, dials {@code <dir>/<endpoint>}, asks
 * {@code GetDevicePluginOptions} and keeps a {@code ListAndWatch} stream open, remembering the
 * latest full device list of each resource. When that stream ends, the resource's devices are
 * marked unhealthy, as the kubelet does. {@link #allocate} is what the kubelet calls when it admits
 * a container, {@link #admit} the kubelet's pick of the devices before it (with the plugin's
 * preferred allocation); {@link #restart} is a kubelet restart: the plugin directory is cleaned
 * (every other socket deleted) and {@code kubelet.sock} created again.
 */
public final class FakeDeviceManager implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FakeDeviceManager.class);

  /** The file name of the kubelet's registration socket in the device plugin directory. */
  public static final String KUBELET_SOCKET = "kubelet.sock";

  /** One plugin registration the kubelet accepted. */
  public record Registration(String resourceName, String endpoint, DevicePluginOptions options) {
    public Registration {
      requireNonNull(resourceName, "resourceName is null");
      requireNonNull(endpoint, "endpoint is null");
      requireNonNull(options, "options is null");
    }
  }

  private final Path directory;
  private final Object lock = new Object();
  private final List<Registration> registrations = new ArrayList<>();
  private final Map<String, ImmutableSortedMap<String, String>> devices = new TreeMap<>();
  private final Map<String, ManagedChannel> plugins = new TreeMap<>();

  /** Per resource, the device ids {@link #admit} gave to containers. */
  private final Map<String, Set<String>> given = new TreeMap<>();

  private UnixSocketServer registrationServer;

  private FakeDeviceManager(Path directory) {
    this.directory = requireNonNull(directory, "directory is null");
  }

  /** Starts serving registration on {@code <directory>/kubelet.sock}. */
  public static FakeDeviceManager start(Path directory) {
    FakeDeviceManager manager = new FakeDeviceManager(directory);
    manager.serve();
    return manager;
  }

  public Path directory() {
    return directory;
  }

  public Path kubeletSocket() {
    return directory.resolve(KUBELET_SOCKET);
  }

  /** Every registration accepted so far, in order (a re-registration is listed again). */
  public List<Registration> registrations() {
    synchronized (lock) {
      return ImmutableList.copyOf(registrations);
    }
  }

  /**
   * The latest device list of {@code resourceName}: device id to health ({@code Healthy} or {@code
   * Unhealthy}); empty before the plugin sent one.
   */
  public ImmutableSortedMap<String, String> devices(String resourceName) {
    synchronized (lock) {
      return devices.getOrDefault(resourceName, ImmutableSortedMap.of());
    }
  }

  /**
   * Calls the plugin's {@code Allocate} for one container holding {@code deviceIds}, as the kubelet
   * does when it admits the container.
   *
   * @throws io.grpc.StatusRuntimeException the plugin's error
   * @throws IllegalStateException when no plugin registered {@code resourceName}
   */
  public AllocateResponse allocate(String resourceName, List<String> deviceIds) {
    ManagedChannel channel;
    synchronized (lock) {
      channel = plugins.get(resourceName);
    }
    if (channel == null) {
      throw new IllegalStateException("no device plugin registered " + resourceName);
    }
    return DevicePluginGrpc.newBlockingStub(channel)
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .allocate(
            AllocateRequest.newBuilder()
                .addContainerRequests(
                    ContainerAllocateRequest.newBuilder().addAllDevicesIds(deviceIds))
                .build());
  }

  /**
   * Admits a container asking for {@code count} devices of {@code resourceName} as the kubelet's
   * device manager picks them (protocols.md §2.4): from the healthy devices this manager has not
   * given out, the plugin's preferred allocation when its options ask for {@code
   * GetPreferredAllocation} and the answer is {@code count} of them, otherwise the first {@code
   * count} by id; then {@code Allocate} with them, which are given out from then on.
   *
   * @throws io.grpc.StatusRuntimeException the plugin's error
   * @throws IllegalStateException when no plugin registered {@code resourceName} or too few devices
   *     are free
   */
  public AllocateResponse admit(String resourceName, int count) {
    ManagedChannel channel;
    boolean asksForPreference;
    List<String> available = new ArrayList<>();
    synchronized (lock) {
      channel = plugins.get(resourceName);
      if (channel == null) {
        throw new IllegalStateException("no device plugin registered " + resourceName);
      }
      asksForPreference =
          registrations.stream()
              .filter(r -> r.resourceName().equals(resourceName))
              .reduce((first, second) -> second)
              .map(r -> r.options().getGetPreferredAllocationAvailable())
              .orElse(false);
      Set<String> taken = given.getOrDefault(resourceName, Set.of());
      devices
          .getOrDefault(resourceName, ImmutableSortedMap.of())
          .forEach(
              (id, health) -> {
                if (health.equals("Healthy") && !taken.contains(id)) {
                  available.add(id);
                }
              });
    }
    if (available.size() < count) {
      throw new IllegalStateException(
          resourceName + ": " + count + " devices asked for, " + available.size() + " free");
    }
    List<String> picked = List.copyOf(available.subList(0, count));
    if (asksForPreference) {
      List<String> preferred =
          DevicePluginGrpc.newBlockingStub(channel)
              .withDeadlineAfter(10, TimeUnit.SECONDS)
              .getPreferredAllocation(
                  PreferredAllocationRequest.newBuilder()
                      .addContainerRequests(
                          ContainerPreferredAllocationRequest.newBuilder()
                              .addAllAvailableDeviceIDs(available)
                              .setAllocationSize(count))
                      .build())
              .getContainerResponses(0)
              .getDeviceIDsList();
      if (preferred.size() == count
          && available.containsAll(preferred)
          && Set.copyOf(preferred).size() == count) {
        picked = List.copyOf(preferred);
      }
    }
    AllocateResponse response = allocate(resourceName, picked);
    synchronized (lock) {
      given.computeIfAbsent(resourceName, r -> new TreeSet<>()).addAll(picked);
    }
    return response;
  }

  /**
   * A kubelet restart: stops serving registration, drops the plugin connections, deletes every
   * other socket of the directory (the kubelet's CleanupPluginDirectory) and serves {@code
   * kubelet.sock} again.
   */
  public void restart() {
    stop();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : files.toList()) {
        if (!Files.isDirectory(file)) {
          Files.deleteIfExists(file);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    serve();
  }

  @Override
  public void close() {
    stop();
  }

  private void serve() {
    try {
      registrationServer =
          UnixSocketServer.start(kubeletSocket(), List.of(new RegistrationService()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void stop() {
    if (registrationServer != null) {
      registrationServer.close();
      registrationServer = null;
    }
    synchronized (lock) {
      plugins.values().forEach(ManagedChannel::shutdownNow);
      plugins.clear();
    }
  }

  private final class RegistrationService extends RegistrationGrpc.RegistrationImplBase {
    @Override
    public void register(RegisterRequest request, StreamObserver<Empty> response) {
      Optional<String> refusal = refusal(request);
      if (refusal.isPresent()) {
        response.onError(Status.INVALID_ARGUMENT.withDescription(refusal.get()).asException());
        return;
      }
      ManagedChannel channel = UnixSocketChannels.dial(directory.resolve(request.getEndpoint()));
      DevicePluginOptions options;
      try {
        options =
            DevicePluginGrpc.newBlockingStub(channel)
                .withDeadlineAfter(10, TimeUnit.SECONDS)
                .getDevicePluginOptions(Empty.getDefaultInstance());
      } catch (RuntimeException e) {
        channel.shutdownNow();
        response.onError(
            Status.UNAVAILABLE
                .withDescription("cannot reach plugin at " + request.getEndpoint())
                .withCause(e)
                .asException());
        return;
      }
      String resource = request.getResourceName();
      synchronized (lock) {
        ManagedChannel previous = plugins.put(resource, channel);
        if (previous != null) {
          previous.shutdownNow();
        }
        registrations.add(new Registration(resource, request.getEndpoint(), options));
      }
      response.onNext(Empty.getDefaultInstance());
      response.onCompleted();
      // Outside the Register call's context, which is cancelled once Register returns.
      Context.ROOT.run(
          () ->
              DevicePluginGrpc.newStub(channel)
                  .listAndWatch(
                      Empty.getDefaultInstance(), new DeviceListObserver(resource, channel)));
    }

    /** The kubelet's checks: a known version and an extended resource name. */
    private Optional<String> refusal(RegisterRequest request) {
      if (!request.getVersion().equals("v1beta1")) {
        return Optional.of(
            "Requested Device Plugin Version " + request.getVersion() + " is not supported");
      }
      String name = request.getResourceName();
      if (!name.contains("/") || name.startsWith("kubernetes.io/")) {
        return Optional.of("invalid Extended Resource name: " + name);
      }
      if (request.getEndpoint().isEmpty() || request.getEndpoint().contains("/")) {
        return Optional.of("endpoint must be a socket file name, got " + request.getEndpoint());
      }
      return Optional.empty();
    }
  }

  private final class DeviceListObserver implements StreamObserver<ListAndWatchResponse> {
    private final String resource;
    private final ManagedChannel channel;

    DeviceListObserver(String resource, ManagedChannel channel) {
      this.resource = resource;
      this.channel = channel;
    }

    @Override
    public void onNext(ListAndWatchResponse list) {
      ImmutableSortedMap.Builder<String, String> health = ImmutableSortedMap.naturalOrder();
      for (Device d : list.getDevicesList()) {
        health.put(d.getID(), d.getHealth());
      }
      synchronized (lock) {
        if (plugins.get(resource) == channel) {
          devices.put(resource, health.buildOrThrow());
        }
      }
    }

    @Override
    public void onError(Throwable t) {
      ended(t.getMessage());
    }

    @Override
    public void onCompleted() {
      ended("stream completed");
    }

    /** As the kubelet: a plugin whose stream ended has all its devices unhealthy. */
    private void ended(String why) {
      log.debug("ListAndWatch of {} ended: {}", resource, why);
      synchronized (lock) {
        if (plugins.get(resource) != channel) {
          return;
        }
        ImmutableSortedMap.Builder<String, String> unhealthy = ImmutableSortedMap.naturalOrder();
        devices
            .getOrDefault(resource, ImmutableSortedMap.of())
            .keySet()
            .forEach(id -> unhealthy.put(id, "Unhealthy"));
        devices.put(resource, unhealthy.buildOrThrow());
      }
    }
  }
}
