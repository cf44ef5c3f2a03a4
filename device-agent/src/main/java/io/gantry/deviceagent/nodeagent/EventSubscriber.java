package io.gantry.deviceagent.nodeagent;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.NodeEvent;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * One {@code WatchEvents} stream and its bounded buffer. {@link #offer} (the health and enforcement
 * paths) only queues and never touches gRPC; the events are sent on the drain executor, and again
 * whenever the transport says the client is ready for more, so a client that reads slowly costs
 * only its own buffer. A client that falls {@code capacity} events behind is disconnected with
 * {@code RESOURCE_EXHAUSTED}: events are not replayed, so a client that missed some must call
 * {@code GetNode} again rather than go on with a state it cannot know is wrong. Thread-safe.
 */
final class EventSubscriber {
  private final ServerCallStreamObserver<NodeEvent> call;
  private final ImmutableSet<NodeEvent.EventCase> kinds;
  private final int capacity;
  private final Executor drainer;
  private final Consumer<EventSubscriber> onEnd;

  /** Guards the queue and the flags; held only to queue or take an event. */
  private final Object queueLock = new Object();

  /** Serialises the calls on the stream, which is not thread-safe. */
  private final Object sendLock = new Object();

  private final ArrayDeque<NodeEvent> queue = new ArrayDeque<>();
  private boolean drainScheduled;
  private boolean ended;
  private Status endStatus;

  /**
   * @param kinds the event kinds the client asked for; empty for all
   * @param onEnd run once when the stream ends for any reason (the hub forgets it)
   */
  EventSubscriber(
      ServerCallStreamObserver<NodeEvent> call,
      ImmutableSet<NodeEvent.EventCase> kinds,
      int capacity,
      Executor drainer,
      Consumer<EventSubscriber> onEnd) {
    this.call = requireNonNull(call, "call is null");
    this.kinds = requireNonNull(kinds, "kinds is null");
    this.capacity = capacity;
    this.drainer = requireNonNull(drainer, "drainer is null");
    this.onEnd = requireNonNull(onEnd, "onEnd is null");
    call.setOnReadyHandler(this::drain);
    call.setOnCancelHandler(this::cancelled);
  }

  /** Queues {@code event} when the client asked for its kind; never blocks. */
  void offer(NodeEvent event) {
    if (!kinds.isEmpty() && !kinds.contains(event.getEventCase())) {
      return;
    }
    boolean schedule;
    boolean overflowed = false;
    synchronized (queueLock) {
      if (ended) {
        return;
      }
      if (queue.size() >= capacity) {
        queue.clear();
        end(
            Status.RESOURCE_EXHAUSTED.withDescription(
                "the client fell "
                    + capacity
                    + " events behind and was disconnected; call GetNode for the current state"
                    + " and watch again"));
        overflowed = true;
      } else {
        queue.add(event);
      }
      schedule = !drainScheduled;
      drainScheduled = true;
    }
    if (overflowed) {
      onEnd.accept(this);
    }
    if (schedule) {
      drainer.execute(this::drain);
    }
  }

  /** Ends the stream normally after what the transport takes now (the agent is stopping). */
  void complete() {
    synchronized (queueLock) {
      if (ended) {
        return;
      }
      end(Status.OK);
    }
    onEnd.accept(this);
    drain();
  }

  /** Sends queued events while the client is ready; closes the stream once it has ended. */
  private void drain() {
    synchronized (sendLock) {
      synchronized (queueLock) {
        drainScheduled = false;
      }
      while (call.isReady()) {
        NodeEvent next;
        synchronized (queueLock) {
          next = queue.poll();
        }
        if (next == null) {
          break;
        }
        try {
          call.onNext(next);
        } catch (RuntimeException e) {
          // the client went away meanwhile; the cancel handler forgets the stream
          return;
        }
      }
      Status status;
      synchronized (queueLock) {
        status = endStatus;
        endStatus = null;
      }
      if (status == null) {
        return;
      }
      if (status.isOk()) {
        call.onCompleted();
      } else {
        call.onError(status.asRuntimeException());
      }
    }
  }

  private void cancelled() {
    synchronized (queueLock) {
      if (ended) {
        return;
      }
      ended = true;
      queue.clear();
    }
    onEnd.accept(this);
  }

  /** Marks the stream ended with {@code status}, sent by the next drain. Holds queueLock. */
  private void end(Status status) {
    ended = true;
    endStatus = status;
  }
}
