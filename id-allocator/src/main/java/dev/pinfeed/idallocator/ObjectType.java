package dev.pinfeed.idallocator;

import java.util.Locale;

/**
 * The type registry: the 10-bit type field of a sharded ID. Numbers are persisted inside every ID
 * ever issued, so an entry's number never changes and is never reused; only append.
 * Pin = 1 as in the Pinterest seed.
 */
public enum ObjectType {
    PIN(1),
    USER(2),
    BOARD(3),
    COMMENT(4),
    INTEREST(5);

    private static final ObjectType[] BY_ID = new ObjectType[ShardedId.MAX_TYPE + 1];

    static {
        for (ObjectType t : values()) {
            if (BY_ID[t.id] != null) throw new ExceptionInInitializerError("type id " + t.id + " registered twice");
            BY_ID[t.id] = t;
        }
    }

    private final int id;

    ObjectType(int id) {
        this.id = id;
    }

    public int id() {
        return id;
    }

    /** Lower-case name used on the CLI and in decoded IDs ({@code pin}). */
    public String typeName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ObjectType byId(int id) {
        ObjectType t = id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
        if (t == null) throw new InvalidIdException("unknown type " + id + " (known: " + knownTypes() + ")");
        return t;
    }

    public static ObjectType byName(String name) {
        for (ObjectType t : values()) {
            if (t.typeName().equalsIgnoreCase(name == null ? "" : name.trim())) return t;
        }
        throw new InvalidIdException("unknown type '" + name + "' (known: " + knownTypes() + ")");
    }

    static String knownTypes() {
        StringBuilder sb = new StringBuilder();
        for (ObjectType t : values()) {
            if (sb.length() > 0) sb.append(", ");
            sb.append(t.id).append('=').append(t.typeName());
        }
        return sb.toString();
    }
}
