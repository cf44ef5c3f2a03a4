package io.gantry.deviceagent.deviceplugin;

import com.google.common.collect.ImmutableList;
import io.gantry.proto.deviceplugin.v1beta1.ListAndWatchResponse;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;

/**
 * The current device list of one resource and the kubelet streams watching it. A new stream gets
 * the full list at once; every change of the list (a device added, gone, or its health changed)
 * sends the full list to every stream, as the device plugin API asks. Thread-safe.
 */
final class DeviceListFeed {
  private final Object lock = new Object();
  private final List<StreamObserver<ListAndWatchResponse>> watchers = new ArrayList<>();
  private ImmutableList<PluginDevice> devices = ImmutableList.of();

  /** The list now. */
  ImmutableList<PluginDevice> devices() {
    synchronized (lock) {
      return devices;
    }
  }

  /**
   * Makes {@code next} the list; streams hear of it when it differs from the current one.
   *
   * @return whether the list changed
   */
  boolean publish(List<PluginDevice> next) {
    synchronized (lock) {
      ImmutableList<PluginDevice> list = ImmutableList.copyOf(next);
      if (list.equals(devices)) {
        return false;
      }
      devices = list;
      ListAndWatchResponse response = response(list);
      for (StreamObserver<ListAndWatchResponse> watcher : List.copyOf(watchers)) {
        send(watcher, response);
      }
      return true;
    }
  }

  /** Adds a kubelet stream: it gets the list now and every change until it is cancelled. */
  void watch(StreamObserver<ListAndWatchResponse> watcher) {
    if (watcher instanceof ServerCallStreamObserver<ListAndWatchResponse> call) {
      call.setOnCancelHandler(() -> forget(watcher));
    }
    synchronized (lock) {
      watchers.add(watcher);
      send(watcher, response(devices));
    }
  }

  /** Ends every stream (the plugin is stopping); the kubelet then marks the devices unhealthy. */
  void endAll() {
    synchronized (lock) {
      for (StreamObserver<ListAndWatchResponse> watcher : watchers) {
        try {
          watcher.onCompleted();
        } catch (RuntimeException e) {
          // Already cancelled by the kubelet: nothing left to end.
        }
      }
      watchers.clear();
    }
  }

  private void forget(StreamObserver<ListAndWatchResponse> watcher) {
    synchronized (lock) {
      watchers.remove(watcher);
    }
  }

  private void send(StreamObserver<ListAndWatchResponse> watcher, ListAndWatchResponse response) {
    try {
      watcher.onNext(response);
    } catch (RuntimeException e) {
      // The stream was cancelled meanwhile; the cancel handler forgets it.
      watchers.remove(watcher);
    }
  }

  private static ListAndWatchResponse response(List<PluginDevice> devices) {
    ListAndWatchResponse.Builder response = ListAndWatchResponse.newBuilder();
    devices.forEach(d -> response.addDevices(d.toProto()));
    return response.build();
  }
}
