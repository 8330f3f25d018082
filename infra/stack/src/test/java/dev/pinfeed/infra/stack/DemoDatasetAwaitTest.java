package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DemoDatasetAwaitTest {

    private static final Duration STALL = Duration.ofSeconds(120);

    /** A fake clock that each pause moves on, and ids that become readable at given times. */
    private static final class World {
        long nanos;
        final Map<String, Long> readableAt = new HashMap<>();
        final List<String> asked = new ArrayList<>();

        boolean readable(String id) {
            asked.add(id);
            Long at = readableAt.get(id);
            return at != null && nanos >= at;
        }

        void pause(long millis) {
            nanos += Duration.ofMillis(millis).toNanos();
        }
    }

    @Test
    void thePinsThatGetRepinnedArePublishedFirstAndEveryPinOnce() {
        DemoPlan plan = new DemoPlan(DemoPlan.Size.DEFAULT, 20261124L);
        List<Integer> order = DemoDataset.pinsRepinnedFirst(plan);
        java.util.Set<Integer> repinned = new java.util.HashSet<>();
        plan.repins.forEach(r -> repinned.add(r.pin()));
        assertThat(order).hasSize(plan.pins.size()).doesNotHaveDuplicates();
        assertThat(order.subList(0, repinned.size())).containsExactlyInAnyOrderElementsOf(repinned);
    }

    @Test
    void aLatePinAtTheHeadDoesNotHideTheOthersBeingWritten() throws InterruptedException {
        World w = new World();
        w.readableAt.put("a", Duration.ofSeconds(200).toNanos()); // the first one comes late
        w.readableAt.put("b", Duration.ofSeconds(1).toNanos());
        w.readableAt.put("c", Duration.ofSeconds(100).toNanos());

        List<String> unreadable = DemoDataset.awaitReadable(List.of("a", "b", "c"), w::readable, () -> w.nanos, w::pause, STALL);

        assertThat(unreadable).isEmpty(); // c at 100 s kept the wait alive until a at 200 s
        assertThat(w.nanos).isBetween(Duration.ofSeconds(200).toNanos(), Duration.ofSeconds(201).toNanos());
    }

    @Test
    void givesUpAfterTheStallWithoutProgressAndNamesOnlyThoseNotReadable() throws InterruptedException {
        World w = new World();
        w.readableAt.put("b", 0L);
        w.readableAt.put("c", Duration.ofSeconds(30).toNanos());

        List<String> unreadable = DemoDataset.awaitReadable(List.of("a", "b", "c", "d"), w::readable, () -> w.nanos, w::pause, STALL);

        assertThat(unreadable).containsExactly("a", "d");
        assertThat(w.nanos).isBetween(Duration.ofSeconds(150).toNanos(), Duration.ofSeconds(151).toNanos());
    }

    @Test
    void asksNoMoreOnceAllAreReadable() throws InterruptedException {
        World w = new World();
        w.readableAt.put("a", 0L);
        w.readableAt.put("b", 0L);

        assertThat(DemoDataset.awaitReadable(List.of("a", "b"), w::readable, () -> w.nanos, w::pause, STALL)).isEmpty();
        assertThat(w.asked).containsExactly("a", "b");
        assertThat(w.nanos).isZero();
    }
}
