package dev.pinfeed.processorruntime;

import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link ReadHorizon} over other processors' consumer groups: a snapshot is taken of where the partitions they commit in
 * end; once every group has committed up to it, everything written there before the snapshot's time has been applied.
 * What {@link ConsumerLoop} does for its own partitions, for partitions others read: a like waiting for its pin waits as
 * long as the materializer has not applied what its topics held when the like's grace ran out, however long its backlog.
 *
 * <p>The brokers are asked only while someone asked for the horizon within {@link #IDLE_MS} (records are waiting), on a
 * thread of its own so a slow broker never holds up a poll. A group that has committed nothing (not deployed here, or
 * under another name) holds nothing back: waiting for it would wait forever.
 */
public final class UpstreamHorizon implements ReadHorizon, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(UpstreamHorizon.class);
    static final long IDLE_MS = 60_000;

    /** The log ends, per group, of the partitions it had committed in when the snapshot was taken. */
    private record Snapshot(long takenAt, Map<String, Map<TopicPartition, Long>> ends) {}

    private final List<String> groups;
    private final GroupOffsets offsets;
    private final Clock clock;
    private final Set<String> reportedUnknown = new HashSet<>();
    private ScheduledExecutorService refresher;
    private volatile long readAllUntil = Long.MIN_VALUE;
    private volatile long askedAt = Long.MIN_VALUE;
    private Snapshot pending;

    public UpstreamHorizon(List<String> groups, GroupOffsets offsets, Clock clock) {
        this.groups = List.copyOf(groups);
        this.offsets = offsets;
        this.clock = clock;
    }

    /** Refreshes every {@code everyMs} on a daemon thread until closed. */
    public UpstreamHorizon start(long everyMs) {
        refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "upstream-horizon");
            t.setDaemon(true);
            return t;
        });
        refresher.scheduleWithFixedDelay(this::refreshQuietly, 0, everyMs, TimeUnit.MILLISECONDS);
        return this;
    }

    @Override
    public long readAllUntil() {
        askedAt = clock.millis();
        return readAllUntil;
    }

    /**
     * One turn: each group's committed offsets asked once; a pending snapshot that every group has reached moves the
     * horizon to its time; then, with none pending, a new one is taken from the same offsets and the log ends of the
     * partitions they name (one call). Nothing is asked while nobody asked for the horizon lately.
     */
    synchronized void refresh() {
        long now = clock.millis();
        if (askedAt == Long.MIN_VALUE || now - askedAt > IDLE_MS) {
            pending = null;
            return;
        }
        Map<String, Map<TopicPartition, Long>> committed = new HashMap<>();
        for (String group : groups) committed.put(group, offsets.committed(group));
        if (pending != null && reached(pending, committed)) {
            readAllUntil = Math.max(readAllUntil, pending.takenAt());
            pending = null;
        }
        if (pending != null) return;
        Set<TopicPartition> partitions = new HashSet<>();
        committed.forEach((group, offsetsOfGroup) -> {
            if (!offsetsOfGroup.isEmpty()) {
                partitions.addAll(offsetsOfGroup.keySet());
            } else if (reportedUnknown.add(group)) {
                LOG.info("upstream horizon: group {} has committed nothing; records waiting for what it writes wait their grace only", group);
            }
        });
        Map<TopicPartition, Long> logEnds = partitions.isEmpty() ? Map.of() : offsets.ends(partitions);
        Map<String, Map<TopicPartition, Long>> behind = new HashMap<>();
        committed.forEach((group, offsetsOfGroup) -> offsetsOfGroup.forEach((tp, offset) -> {
            Long end = logEnds.get(tp);
            if (end != null && offset < end) behind.computeIfAbsent(group, g -> new HashMap<>()).put(tp, end);
        }));
        if (behind.isEmpty()) {
            readAllUntil = Math.max(readAllUntil, now);
        } else {
            pending = new Snapshot(now, behind);
        }
    }

    /** Whether every group has committed up to the snapshot's ends; a group whose offsets were deleted (a reset) counts as never seen. */
    private static boolean reached(Snapshot s, Map<String, Map<TopicPartition, Long>> committed) {
        for (Map.Entry<String, Map<TopicPartition, Long>> group : s.ends().entrySet()) {
            Map<TopicPartition, Long> offsetsOfGroup = committed.getOrDefault(group.getKey(), Map.of());
            if (offsetsOfGroup.isEmpty()) continue;
            for (Map.Entry<TopicPartition, Long> end : group.getValue().entrySet()) {
                if (offsetsOfGroup.getOrDefault(end.getKey(), 0L) < end.getValue()) return false;
            }
        }
        return true;
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException brokersSlow) {
            LOG.debug("upstream horizon: not refreshed this turn: {}", brokersSlow.getMessage());
        }
    }

    @Override
    public void close() {
        if (refresher != null) refresher.shutdownNow();
    }
}
