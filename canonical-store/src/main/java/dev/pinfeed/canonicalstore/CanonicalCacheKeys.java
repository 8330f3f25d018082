package dev.pinfeed.canonicalstore;

import dev.pinfeed.redisshards.VirtualShards;

/**
 * Redis keys of the canonical store's caches (seed 002's application-layer join: board → pin ids,
 * pin id → pin object); nothing else formats them. A key carries its object's virtual shard as the
 * hash tag {@code {v<shard>}}, so it lives on the Redis instance the graph's shard map names for
 * that shard ({@link #shardOf}).
 *
 * <pre>
 * pf:c:{v&lt;s&gt;}:pin:&lt;id&gt;                     the pin's JSON (without its counts)
 * pf:c:{v&lt;s&gt;}:pin:&lt;id&gt;:likes               the pin's like count
 * pf:c:{v&lt;s&gt;}:pin:&lt;id&gt;:comments            the pin's comment count
 * pf:c:{v&lt;s&gt;}:comment:&lt;id&gt;                 the comment's JSON
 * pf:c:{v&lt;s&gt;}:pin:&lt;id&gt;:repins              the pin's repin count
 * pf:c:{v&lt;s&gt;}:board:&lt;id&gt;:pins:&lt;order&gt;       the board's first pin ids in that order (newest | custom)
 * pf:c:{v&lt;s&gt;}:ver:&lt;id&gt;                     the object's cache version
 * pf:c:{v&lt;s&gt;}:user:&lt;id&gt;                    the user's JSON
 * pf:c:{v&lt;s&gt;}:board:&lt;id&gt;                   the board's JSON
 * pf:c:{v&lt;s&gt;}:interest:&lt;id&gt;                the interest's JSON
 * </pre>
 * Invalidation protocol: the writer, after its MySQL transaction commits, INCRs {@link #version} of
 * the object and DELs its value keys; a reader reads the version before reading MySQL and fills a
 * value only if the version is still the same (one Lua script), so a slow reader never puts back
 * what the writer just invalidated.
 */
public final class CanonicalCacheKeys {

    private static final String PREFIX = "pf:c:";

    private CanonicalCacheKeys() {}

    /**
     * Whether {@code key} is one of these caches: a restore of a Redis snapshot leaves them out, since an old
     * value with its old version would pass for current (they fill again from MySQL on read).
     */
    public static boolean isCacheKey(String key) {
        return key.startsWith(PREFIX);
    }

    /** The virtual shard (of the graph's 8192) whose Redis instance holds the object's keys. */
    public static int shardOf(long objectId) {
        return VirtualShards.of(objectId);
    }

    private static String base(long objectId) {
        return PREFIX + VirtualShards.tag(objectId) + ":";
    }

    public static String pin(long pinId) {
        return base(pinId) + "pin:" + pinId;
    }

    public static String pinLikes(long pinId) {
        return base(pinId) + "pin:" + pinId + ":likes";
    }

    public static String pinComments(long pinId) {
        return base(pinId) + "pin:" + pinId + ":comments";
    }

    public static String comment(long commentId) {
        return base(commentId) + "comment:" + commentId;
    }

    public static String pinRepins(long pinId) {
        return base(pinId) + "pin:" + pinId + ":repins";
    }

    /** {@code order} is {@code newest} or {@code custom}. */
    public static String boardPins(long boardId, String order) {
        if (!order.equals("newest") && !order.equals("custom")) throw new IllegalArgumentException("no board pin order " + order);
        return base(boardId) + "board:" + boardId + ":pins:" + order;
    }

    public static String user(long userId) {
        return base(userId) + "user:" + userId;
    }

    public static String board(long boardId) {
        return base(boardId) + "board:" + boardId;
    }

    public static String interest(long interestId) {
        return base(interestId) + "interest:" + interestId;
    }

    public static String version(long objectId) {
        return base(objectId) + "ver:" + objectId;
    }
}
