package dev.pinfeed.feedworker.process;

import dev.pinfeed.feedworker.FeedWorker;
import dev.pinfeed.feedworker.Verdict;
import dev.pinfeed.processorruntime.BatchHandler;
import dev.pinfeed.processorruntime.InputRecord;
import dev.pinfeed.processorruntime.Outcomes;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link FeedWorker} on the processor runtime's {@link dev.pinfeed.processorruntime.ConsumerLoop}: maps
 * verdicts to {@link Outcomes} and keeps each key's records in order across polls.
 *
 * <p>The loop parks a record whose store is down (or that waits) and goes on with later records, but
 * the worker's effects are not order-free per key: a pin's REMOVE applied while its ADD is parked would
 * be undone by the ADD's retry; an unfollow purged before its follow's parked backfill would be refilled.
 * So a record whose key (topic, partition, record key) has an earlier record parked is parked behind it
 * — marked like it — and runs only in a retry, where the loop hands back every parked record in offset
 * order and the worker applies them in that order. A record that waits too long is dead-lettered here
 * ({@link dev.pinfeed.feedworker.WorkerSettings#waitGrace}), before the loop's own, longer grace (both
 * held by the same upstream horizon), so this class always knows which records are parked.
 *
 * <p>Not thread-safe: one loop, one thread. A partition revoked while records of it are parked leaves
 * entries here until the partition comes back (its records are then redelivered and settle them).
 */
public final class FeedWorkerHandler implements BatchHandler {

    /** A record key of one partition: the unit Kafka keeps in order. */
    private record Key(String topic, int partition, ByteBuffer key) {
        static Key of(InputRecord r) {
            byte[] k = r.raw().key();
            return k == null ? null : new Key(r.topic(), r.partition(), ByteBuffer.wrap(k));
        }
    }

    /** A parked record: its verdict, and when it first had to wait for another store (-1 when it never did). */
    private record Parked(Verdict verdict, long waitingSince) {}

    private final FeedWorker worker;
    private final Clock clock;
    private final Map<Key, TreeMap<Long, Parked>> parked = new HashMap<>();

    public FeedWorkerHandler(FeedWorker worker, Clock clock) {
        this.worker = worker;
        this.clock = clock;
    }

    @Override
    public void apply(List<InputRecord> records, Outcomes outcomes) {
        long now = clock.millis();
        List<InputRecord> runnable = new ArrayList<>(records.size());
        List<FeedWorker.Item> items = new ArrayList<>(records.size());
        for (InputRecord r : records) {
            Key key = Key.of(r);
            Parked own = own(key, r.offset());
            Parked earlier = own == null ? earliestBefore(key, r.offset()) : null;
            if (earlier != null) {
                settle(r, key, Verdict.behind(earlier.verdict()), null, outcomes, now);
            } else {
                runnable.add(r);
                items.add(new FeedWorker.Item(key, r.event(), own == null ? -1 : own.waitingSince()));
            }
        }
        if (items.isEmpty()) return;
        List<Verdict> verdicts = worker.apply(items);
        for (int i = 0; i < runnable.size(); i++) {
            InputRecord r = runnable.get(i);
            Key key = Key.of(r);
            settle(r, key, verdicts.get(i), own(key, r.offset()), outcomes, now);
        }
    }

    /** How many records this handler holds as parked (for tests and diagnostics). */
    public int parkedCount() {
        return parked.values().stream().mapToInt(Map::size).sum();
    }

    private void settle(InputRecord r, Key key, Verdict v, Parked before, Outcomes outcomes, long now) {
        switch (v.kind()) {
            case APPLIED -> forget(key, r.offset());
            case REJECTED -> {
                outcomes.reject(r, v.reason(), v.detail());
                forget(key, r.offset());
            }
            case UNAVAILABLE -> {
                outcomes.unavailable(r, v.outage());
                remember(key, r.offset(), new Parked(v, before == null ? -1 : before.waitingSince()));
            }
            case DEFERRED -> {
                outcomes.defer(r, v.detail());
                remember(key, r.offset(), new Parked(v, before == null ? -1 : before.waitingSince()));
            }
            case WAITING -> {
                outcomes.waitFor(r, v.reason(), v.detail());
                long since = before != null && before.waitingSince() >= 0 ? before.waitingSince() : v.behind() ? -1 : now;
                remember(key, r.offset(), new Parked(v, since));
            }
        }
    }

    private Parked own(Key key, long offset) {
        TreeMap<Long, Parked> p = key == null ? null : parked.get(key);
        return p == null ? null : p.get(offset);
    }

    private Parked earliestBefore(Key key, long offset) {
        TreeMap<Long, Parked> p = key == null ? null : parked.get(key);
        if (p == null) return null;
        Map.Entry<Long, Parked> first = p.firstEntry();
        return first.getKey() < offset ? first.getValue() : null;
    }

    private void remember(Key key, long offset, Parked p) {
        if (key != null) parked.computeIfAbsent(key, k -> new TreeMap<>()).put(offset, p);
    }

    private void forget(Key key, long offset) {
        TreeMap<Long, Parked> p = key == null ? null : parked.get(key);
        if (p == null) return;
        p.remove(offset);
        if (p.isEmpty()) parked.remove(key);
    }
}
