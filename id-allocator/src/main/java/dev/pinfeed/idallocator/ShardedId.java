package dev.pinfeed.idallocator;

import dev.pinfeed.config.Mix64;

/**
 * The Pinterest layout: where an object lives, packed into a positive 64-bit ID.
 *
 * <pre>
 *  63 62 61            46 45        36 35                                  0
 * | 0  0 |   shard (16)  | type (10)  |            local id (36)            |
 * </pre>
 *
 * The two reserved bits are always zero, so every valid ID is positive. Local IDs start at 1.
 * Use {@link #decode(long)} for untrusted input: it rejects anything {@link #compose} cannot make.
 */
public record ShardedId(int shard, ObjectType type, long localId) {

    public static final int SHARD_BITS = 16;
    public static final int TYPE_BITS = 10;
    public static final int LOCAL_ID_BITS = 36;

    public static final int MAX_SHARD = (1 << SHARD_BITS) - 1;
    public static final int MAX_TYPE = (1 << TYPE_BITS) - 1;
    public static final long MIN_LOCAL_ID = 1;
    public static final long MAX_LOCAL_ID = (1L << LOCAL_ID_BITS) - 1;

    static final int TYPE_SHIFT = LOCAL_ID_BITS;
    static final int SHARD_SHIFT = LOCAL_ID_BITS + TYPE_BITS;
    static final long RESERVED_MASK = -1L << (SHARD_SHIFT + SHARD_BITS);

    public ShardedId {
        if (type == null) throw new InvalidIdException("type is missing");
        checkShard(shard);
        checkLocalId(localId);
    }

    /** The 64-bit ID of (shard, type, localId), validating every field. */
    public static long compose(int shard, ObjectType type, long localId) {
        return new ShardedId(shard, type, localId).value();
    }

    /** Splits an ID into its fields; rejects negative IDs, reserved bits, unknown types, local ID 0. */
    public static ShardedId decode(long id) {
        if ((id & RESERVED_MASK) != 0) {
            throw new InvalidIdException(id < 0
                    ? "id " + id + " is negative; sharded ids are positive (the top 2 bits are reserved and zero)"
                    : "id " + id + " has reserved bits set (bits 62-63 must be zero)");
        }
        int shard = (int) (id >>> SHARD_SHIFT) & MAX_SHARD;
        int typeId = (int) (id >>> TYPE_SHIFT) & MAX_TYPE;
        long localId = id & MAX_LOCAL_ID;
        ObjectType type;
        try {
            type = ObjectType.byId(typeId);
        } catch (InvalidIdException e) {
            throw new InvalidIdException("id " + id + ": " + e.getMessage());
        }
        if (localId < MIN_LOCAL_ID) throw new InvalidIdException("id " + id + " has local id 0; local ids start at 1");
        return new ShardedId(shard, type, localId);
    }

    /** {@link #decode(long)} of decimal text, e.g. a URL path segment or a CLI argument. */
    public static ShardedId parse(String text) {
        return decode(parseDecimal(text));
    }

    public long value() {
        return pack(shard, type.id(), localId);
    }

    public int typeId() {
        return type.id();
    }

    public String typeName() {
        return type.typeName();
    }

    /**
     * The id scrambled one-to-one ({@link Mix64}), for keying hash tables of ids. {@code Long.hashCode}
     * of an id folds its shard onto the bits of its local id, and local ids are small, so ids crowd into a quarter or
     * less of a table's bins, up to eight to a bin (a profile of feed pages found the kept pins' bins turned into trees).
     * Distinct ids keep distinct keys; keep the id itself in the value.
     */
    public static long hashKey(long id) {
        return Mix64.of(id);
    }

    /** Packs fields the caller has already validated (the allocator's hot path). */
    static long pack(int shard, int typeId, long localId) {
        return ((long) shard << SHARD_SHIFT) | ((long) typeId << TYPE_SHIFT) | localId;
    }

    static int checkShard(int shard) {
        if (shard < 0 || shard > MAX_SHARD) {
            throw new InvalidIdException("shard " + shard + " is out of range 0-" + MAX_SHARD);
        }
        return shard;
    }

    static long checkLocalId(long localId) {
        if (localId < MIN_LOCAL_ID || localId > MAX_LOCAL_ID) {
            throw new InvalidIdException("local id " + localId + " is out of range " + MIN_LOCAL_ID + "-" + MAX_LOCAL_ID);
        }
        return localId;
    }

    static long parseDecimal(String text) {
        if (text == null || text.isBlank()) throw new InvalidIdException("id is empty");
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new InvalidIdException("id '" + text.trim() + "' is not a 64-bit decimal integer");
        }
    }
}
