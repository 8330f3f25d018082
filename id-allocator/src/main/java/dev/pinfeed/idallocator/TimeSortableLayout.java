package dev.pinfeed.idallocator;

import java.time.Instant;

/**
 * The Instagram layout: IDs that sort by creation time.
 *
 * <pre>
 *  63                                      23 22            10 9            0
 * |   milliseconds since the epoch (41)      | logical shard (13) | sequence (10) |
 * </pre>
 *
 * Every 64-bit value decodes, so there is nothing to reject on decode. Once more than 2^40 ms
 * (about 34.8 years) have passed since the epoch the top bit is set and IDs are negative as
 * signed longs: compare with {@link Long#compareUnsigned} from then on (see {@link #signBitReachedAt()}).
 * The layout itself is full at {@link #exhaustedAt()}, 2^41 ms (about 69.7 years) after the epoch.
 */
public final class TimeSortableLayout {

    public static final int TIME_BITS = 41;
    public static final int SHARD_BITS = 13;
    public static final int SEQUENCE_BITS = 10;

    public static final long MAX_MILLIS = (1L << TIME_BITS) - 1;
    public static final int MAX_SHARD = (1 << SHARD_BITS) - 1;
    public static final int SEQUENCES_PER_MILLI = 1 << SEQUENCE_BITS;
    public static final int MAX_SEQUENCE = SEQUENCES_PER_MILLI - 1;

    /** pinfeed's epoch unless configured otherwise ({@code ids.time.epoch}). */
    public static final Instant DEFAULT_EPOCH = Instant.parse("2026-01-01T00:00:00Z");

    static final int SHARD_SHIFT = SEQUENCE_BITS;
    static final int TIME_SHIFT = SEQUENCE_BITS + SHARD_BITS;

    private final Instant epoch;
    private final long epochMillis;

    public TimeSortableLayout(Instant epoch) {
        if (epoch == null) throw new IllegalArgumentException("epoch is missing");
        this.epoch = epoch;
        this.epochMillis = epoch.toEpochMilli();
    }

    public Instant epoch() {
        return epoch;
    }

    /** The first instant the 41 time bits cannot hold: no ID can be made from then on. */
    public Instant exhaustedAt() {
        return epoch.plusMillis(MAX_MILLIS + 1);
    }

    /** The first instant whose IDs are negative as signed 64-bit integers. */
    public Instant signBitReachedAt() {
        return epoch.plusMillis(1L << (TIME_BITS - 1));
    }

    public long compose(long millisSinceEpoch, int shard, int sequence) {
        if (millisSinceEpoch < 0 || millisSinceEpoch > MAX_MILLIS) {
            throw new InvalidIdException("time " + millisSinceEpoch + " ms since the epoch is out of range 0-" + MAX_MILLIS);
        }
        checkShard(shard);
        if (sequence < 0 || sequence > MAX_SEQUENCE) {
            throw new InvalidIdException("sequence " + sequence + " is out of range 0-" + MAX_SEQUENCE);
        }
        return pack(millisSinceEpoch, shard, sequence);
    }

    /** {@link #compose} of an absolute time. */
    public long composeAt(Instant time, int shard, int sequence) {
        return compose(millisSinceEpoch(time.toEpochMilli()), shard, sequence);
    }

    public TimeSortableId decode(long id) {
        long millis = id >>> TIME_SHIFT;
        return new TimeSortableId(id, epoch.plusMillis(millis), millis,
                (int) (id >>> SHARD_SHIFT) & MAX_SHARD, (int) id & MAX_SEQUENCE);
    }

    /** {@link #decode(long)} of decimal text; accepts the unsigned form of IDs past the sign-bit date. */
    public TimeSortableId parse(String text) {
        if (text == null || text.isBlank()) throw new InvalidIdException("id is empty");
        try {
            return decode(Long.parseUnsignedLong(text.trim()));
        } catch (NumberFormatException e) {
            try {
                return decode(Long.parseLong(text.trim()));
            } catch (NumberFormatException again) {
                throw new InvalidIdException("id '" + text.trim() + "' is not a 64-bit decimal integer");
            }
        }
    }

    static int checkShard(int shard) {
        if (shard < 0 || shard > MAX_SHARD) {
            throw new InvalidIdException("logical shard " + shard + " is out of range 0-" + MAX_SHARD);
        }
        return shard;
    }

    /** Milliseconds from the epoch to an epoch-milli clock reading; negative before the epoch. */
    long millisSinceEpoch(long unixMillis) {
        return unixMillis - epochMillis;
    }

    static long pack(long millisSinceEpoch, int shard, int sequence) {
        return (millisSinceEpoch << TIME_SHIFT) | ((long) shard << SHARD_SHIFT) | sequence;
    }
}
