package dev.pinfeed.feedstore;

import java.util.Arrays;

/**
 * Why a pin reached a user: the pool it sits in (seed 002: one priority queue per source) and the
 * {@code source} of a feed item on the wire. The code is the byte stored in row keys: never reuse one.
 */
public enum Source {
    FOLLOWED_USER("followed_user", (byte) 1),
    FOLLOWED_BOARD("followed_board", (byte) 2),
    /** A repin (a pin saved from another pin) by a user or on a board he follows: whatever the fan-out's reason. */
    REPINS("repins", (byte) 3),
    /** A pin that shares boards with a pin he saved, liked or repinned (seed 002's "related Pins"). */
    RELATED("related", (byte) 4),
    /** A new pin tagged with an interest (topic) he follows (seed 002's "Pins from followed interests"). */
    INTERESTS("interests", (byte) 5);

    private final String wireName;
    private final byte code;

    Source(String wireName, byte code) {
        this.wireName = wireName;
        this.code = code;
    }

    /** As the HTTP contract spells it: {@code followed_user}, {@code followed_board}, {@code repins},
     * {@code related}, {@code interests}. */
    public String wireName() {
        return wireName;
    }

    public byte code() {
        return code;
    }

    public static Source ofCode(byte code) {
        return Arrays.stream(values()).filter(s -> s.code == code).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown source code " + code));
    }

    public static Source ofWireName(String name) {
        return Arrays.stream(values()).filter(s -> s.wireName.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown source " + name));
    }
}
