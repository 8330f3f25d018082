package dev.pinfeed.idallocator;

import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Issues time-sortable IDs in-process: up to 1024 per millisecond per logical shard, strictly
 * increasing per shard across threads (one compare-and-set per ID on that shard's last value).
 *
 * <p>Clock policies, in order of preference over ever issuing a duplicate:
 * <ul>
 *   <li>sequence of this millisecond spent: wait for the next millisecond;</li>
 *   <li>clock behind the last ID of a shard by at most {@code maxBackwardWait}: wait until it catches up;</li>
 *   <li>clock further behind, or still behind after waiting that long: {@link ClockMovedBackwardsException};</li>
 *   <li>clock before the epoch or past {@link TimeSortableLayout#exhaustedAt()}: {@link IdAllocationException}.</li>
 * </ul>
 *
 * <p>Uniqueness holds within one generator. Two processes must never generate for the same logical
 * shard at the same time: a logical shard is owned by one generator, as a Snowflake worker id is.
 */
public final class TimeSortableIdGenerator {

    /** A clock that does not move for this long while a shard's sequence is spent is treated as broken. */
    static final Duration STALLED_CLOCK_LIMIT = Duration.ofSeconds(1);
    /** Sub-millisecond nap while the sequence of the current millisecond is spent. */
    static final Duration NEXT_MILLI_NAP = Duration.ofNanos(100_000);

    private static final long NONE = -1;

    private final TimeSortableLayout layout;
    private final InstantSource clock;
    private final Waiter waiter;
    private final long maxBackwardWaitMillis;
    /** Per logical shard: (millisSinceEpoch << 10 | sequence) of the last ID issued, or NONE. */
    private final AtomicLongArray lastByShard = new AtomicLongArray(TimeSortableLayout.MAX_SHARD + 1);

    public TimeSortableIdGenerator(TimeSortableLayout layout, InstantSource clock, Waiter waiter, Duration maxBackwardWait) {
        if (layout == null || clock == null || waiter == null) throw new IllegalArgumentException("layout, clock and waiter are required");
        if (maxBackwardWait == null || maxBackwardWait.isNegative()) throw new IllegalArgumentException("maxBackwardWait must be >= 0");
        this.layout = layout;
        this.clock = clock;
        this.waiter = waiter;
        this.maxBackwardWaitMillis = maxBackwardWait.toMillis();
        for (int shard = 0; shard <= TimeSortableLayout.MAX_SHARD; shard++) lastByShard.set(shard, NONE);
    }

    /** System clock, parking waits. */
    public static TimeSortableIdGenerator systemClock(TimeSortableLayout layout, Duration maxBackwardWait) {
        return new TimeSortableIdGenerator(layout, InstantSource.system(), Waiter.parking(), maxBackwardWait);
    }

    public TimeSortableLayout layout() {
        return layout;
    }

    public long next(int shard) {
        TimeSortableLayout.checkShard(shard);
        long waitedBackwardMillis = 0;
        long stalledNanos = 0;
        while (true) {
            long last = lastByShard.get(shard);
            long lastMillis = last == NONE ? NONE : last >>> TimeSortableLayout.SEQUENCE_BITS;
            long now = nowSinceEpoch();
            long next;
            if (now > lastMillis) {
                next = now << TimeSortableLayout.SEQUENCE_BITS;
            } else if (now == lastMillis && (last & TimeSortableLayout.MAX_SEQUENCE) < TimeSortableLayout.MAX_SEQUENCE) {
                next = last + 1;
            } else if (now == lastMillis) {
                stalledNanos += NEXT_MILLI_NAP.toNanos();
                if (stalledNanos > STALLED_CLOCK_LIMIT.toNanos()) {
                    throw new IdAllocationException("clock has not advanced for " + STALLED_CLOCK_LIMIT.toMillis()
                            + " ms while the sequence of logical shard " + shard + " is spent");
                }
                waiter.pause(NEXT_MILLI_NAP);
                continue;
            } else {
                long behind = lastMillis - now;
                if (waitedBackwardMillis + behind > maxBackwardWaitMillis) {
                    throw new ClockMovedBackwardsException("clock is " + behind + " ms behind the last id of logical shard "
                            + shard + (waitedBackwardMillis > 0 ? " after waiting " + waitedBackwardMillis + " ms" : "")
                            + "; waiting more than " + maxBackwardWaitMillis + " ms is not allowed, refusing to risk a duplicate");
                }
                waiter.pause(Duration.ofMillis(behind));
                waitedBackwardMillis += behind;
                continue;
            }
            if (lastByShard.compareAndSet(shard, last, next)) {
                return TimeSortableLayout.pack(now, shard, (int) (next & TimeSortableLayout.MAX_SEQUENCE));
            }
        }
    }

    private long nowSinceEpoch() {
        long now = layout.millisSinceEpoch(clock.millis());
        if (now < 0) {
            throw new IdAllocationException("clock reads " + clock.instant() + ", before the id epoch " + layout.epoch());
        }
        if (now > TimeSortableLayout.MAX_MILLIS) {
            throw new IdAllocationException("the 41-bit time field ran out at " + layout.exhaustedAt()
                    + " (epoch " + layout.epoch() + "); configure a later epoch");
        }
        return now;
    }
}
