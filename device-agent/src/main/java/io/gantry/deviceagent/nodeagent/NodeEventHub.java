package io.gantry.deviceagent.nodeagent;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.gantry.deviceagent.deviceplugin.GpuHealthChange;
import io.gantry.deviceagent.deviceplugin.GpuHealthListener;
import io.gantry.deviceagent.enforcement.EnforcementListener;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.EnforcementEvent;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.NodeEvent;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The node-agent event stream: health changes and enforcement events, numbered from 1 in the order
 * the agent emits them, to every {@code WatchEvents} subscriber that asked for their kind. Emitting
 * never waits for a subscriber: each has a bounded buffer drained on one sender thread ({@link
 * EventSubscriber} disconnects one that falls behind). Thread-safe.
 */
public final class NodeEventHub implements GpuHealthListener, EnforcementListener, AutoCloseable {
  /** Events a subscriber may fall behind before it is disconnected. */
  public static final int DEFAULT_BUFFER_EVENTS = 1024;

  private final Clock clock;
  private final int bufferEvents;
  private final ExecutorService sender =
      Executors.newSingleThreadExecutor(
          new ThreadFactoryBuilder().setNameFormat("node-agent-events").setDaemon(true).build());
  private final List<EventSubscriber> subscribers = new ArrayList<>();
  private long sequence;
  private boolean closed;

  /**
   * @param bufferEvents events each subscriber may fall behind (at least 1)
   */
  public NodeEventHub(Clock clock, int bufferEvents) {
    this.clock = requireNonNull(clock, "clock is null");
    if (bufferEvents < 1) {
      throw new IllegalArgumentException("bufferEvents must be at least 1, got " + bufferEvents);
    }
    this.bufferEvents = bufferEvents;
  }

  @Override
  public void healthChanged(GpuHealthChange change) {
    emit(NodeEvent.newBuilder().setHealth(NodeMessages.healthEvent(change)));
  }

  @Override
  public void enforced(EnforcementEvent event) {
    emit(NodeEvent.newBuilder().setEnforcement(event));
  }

  /**
   * Streams every later event of {@code kinds} (all when empty) to {@code call} until the client
   * cancels, falls behind, or the hub closes. Call from the service method, before it returns.
   */
  void subscribe(
      ServerCallStreamObserver<NodeEvent> call, ImmutableSet<NodeEvent.EventCase> kinds) {
    synchronized (this) {
      if (!closed) {
        subscribers.add(new EventSubscriber(call, kinds, bufferEvents, sender, this::forget));
        return;
      }
    }
    call.onError(
        Status.UNAVAILABLE.withDescription("the device agent is stopping").asRuntimeException());
  }

  /** Streams open now. */
  public synchronized int subscriberCount() {
    return subscribers.size();
  }

  /** Ends every stream normally and stops the sender: the agent is stopping. */
  @Override
  public void close() {
    List<EventSubscriber> open;
    synchronized (this) {
      closed = true;
      open = List.copyOf(subscribers);
    }
    open.forEach(EventSubscriber::complete);
    sender.shutdown();
    try {
      if (!sender.awaitTermination(2, TimeUnit.SECONDS)) {
        sender.shutdownNow();
      }
    } catch (InterruptedException e) {
      sender.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  private synchronized void emit(NodeEvent.Builder event) {
    NodeEvent numbered = event.setSequence(++sequence).setAtUnixMillis(clock.millis()).build();
    for (EventSubscriber subscriber : List.copyOf(subscribers)) {
      subscriber.offer(numbered);
    }
  }

  private synchronized void forget(EventSubscriber subscriber) {
    subscribers.remove(subscriber);
  }
}
