package io.gantry.scheduler.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LeafJobQueueTest {
  /** A job: its order key, and a name that tells equal keys apart without ordering them. */
  private record Job(int key, String name) {}

  private static final Comparator<Job> BY_KEY = Comparator.comparingInt(Job::key);

  /** A total order, as the job order is (creation order breaks every tie). */
  private static final Comparator<Job> BY_KEY_THEN_NAME = BY_KEY.thenComparing(Job::name);

  @Test
  void popsWhatAHeapPopsWhenJobsArePushedBackBetweenPops() {
    Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      List<Job> first = new ArrayList<>();
      List<Integer> keys = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        keys.add(i * 10);
      }
      Collections.shuffle(keys, random);
      for (int key : keys.subList(0, 1 + random.nextInt(59))) {
        first.add(new Job(key, "j" + key));
      }
      LeafJobQueue<Job> queue = new LeafJobQueue<>(BY_KEY_THEN_NAME);
      PriorityQueue<Job> heap = new PriorityQueue<>(BY_KEY_THEN_NAME);
      queue.addFirst(first);
      heap.addAll(first);
      int pushed = 0;
      while (!heap.isEmpty()) {
        assertThat(queue.peek()).isEqualTo(heap.peek());
        Job popped = queue.poll();
        assertThat(popped).isEqualTo(heap.poll());
        if (random.nextInt(3) == 0) {
          // pushed back with a new key, as a job that grew comes back with its new order
          Job back = new Job(popped.key() + 1 + random.nextInt(300), "back" + pushed++);
          queue.add(back);
          heap.add(back);
        }
      }
      assertThat(queue.isEmpty()).isTrue();
      assertThat(queue.poll()).isNull();
    }
  }

  @Test
  void withEqualJobsThePopOrderIsTheHeapsOwn() {
    // equal keys: a heap pops them in an order its layout decides, which the queue must repeat
    List<Job> first = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      first.add(new Job(i % 3, "j" + i));
    }
    LeafJobQueue<Job> queue = new LeafJobQueue<>(BY_KEY);
    PriorityQueue<Job> heap = new PriorityQueue<>(BY_KEY);
    queue.addFirst(first);
    heap.addAll(first);

    List<String> fromQueue = new ArrayList<>();
    List<String> fromHeap = new ArrayList<>();
    while (!heap.isEmpty()) {
      fromQueue.add(queue.poll().name());
      fromHeap.add(heap.poll().name());
    }
    assertThat(fromQueue).isEqualTo(fromHeap);
  }

  @Test
  void theFirstJobsGoIntoAnEmptyQueueOnly() {
    LeafJobQueue<Job> queue = new LeafJobQueue<>(BY_KEY);
    queue.add(new Job(1, "a"));

    assertThatThrownBy(() -> queue.addFirst(List.of(new Job(2, "b"))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the first jobs go into an empty queue");
  }
}
