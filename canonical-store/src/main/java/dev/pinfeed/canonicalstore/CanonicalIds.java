package dev.pinfeed.canonicalstore;

import dev.pinfeed.idallocator.InvalidIdException;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;

/** Where an object's rows live (seed 000): the shard its 64-bit id names, its local id there, its object table. */
public final class CanonicalIds {

    private CanonicalIds() {}

    public static int shardOf(long id) {
        return ShardedId.decode(id).shard();
    }

    public static long localOf(long id) {
        return ShardedId.decode(id).localId();
    }

    /** The object table of an id of {@code type}. */
    public static String tableOf(ObjectType type) {
        return switch (type) {
            case USER -> CanonicalLayout.USERS;
            case BOARD -> CanonicalLayout.BOARDS;
            case PIN -> CanonicalLayout.PINS;
            case COMMENT -> CanonicalLayout.COMMENTS;
            case INTEREST -> CanonicalLayout.INTERESTS;
        };
    }

    /** The object type whose rows {@code table} holds. */
    public static ObjectType typeOf(String table) {
        for (ObjectType t : ObjectType.values()) if (tableOf(t).equals(table)) return t;
        throw new IllegalArgumentException("no object table " + table);
    }

    /**
     * {@code id} as an id of {@code expected}; otherwise {@link InvalidIdException} saying what it is
     * (a pin id where a board id belongs would write the wrong table's row).
     */
    public static long check(long id, ObjectType expected, String field) {
        ShardedId decoded;
        try {
            decoded = ShardedId.decode(id);
        } catch (InvalidIdException e) {
            throw new InvalidIdException(field + ": " + e.getMessage());
        }
        if (decoded.type() != expected) {
            throw new InvalidIdException(field + " " + id + " is a " + decoded.typeName() + " id, not a " + expected.typeName() + " id");
        }
        return id;
    }
}
