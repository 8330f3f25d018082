package dev.pinfeed.feedstore.redis;

import dev.pinfeed.redisshards.VirtualShards;

/**
 * The celebrity keys ({@link dev.pinfeed.feedstore.CelebrityPins}), on the follower graph's Redis instances;
 * nothing else formats them or their members. An author's pins carry his virtual shard's hash tag, so they live
 * on the instance of his graph keys; the celebrity set, one small key, sits on virtual shard 0's instance.
 *
 * <pre>
 * &lt;p&gt;{v&lt;s&gt;}:fs:u:&lt;A&gt;:cp   ZSET  A's newest pins: member "&lt;pin&gt;:&lt;board&gt;", score = creation time, epoch ms
 * &lt;p&gt;{v0}:fs:celebrities      SET   authors with such pins
 * </pre>
 * {@code <p>} is the graph's key prefix ({@code graph.redis.key-prefix}): empty in production, a fresh one per test.
 */
public final class CelebrityKeys {

    /** The virtual shard holding the celebrity set. */
    static final int SET_SHARD = 0;

    private final String prefix;

    public CelebrityKeys(String prefix) {
        this.prefix = VirtualShards.checkedPrefix(prefix);
    }

    public String pins(long author) {
        return prefix + VirtualShards.tag(author) + ":fs:u:" + author + ":cp";
    }

    public String celebrities() {
        return prefix + VirtualShards.tagOfShard(SET_SHARD) + ":fs:celebrities";
    }

    static String member(long pin, long board) {
        return pin + ":" + board;
    }

    /** The member's prefix naming the pin, whatever its board. */
    static String memberPrefix(long pin) {
        return pin + ":";
    }

    static long pinOf(String member) {
        return Long.parseLong(member.substring(0, member.indexOf(':')));
    }

    static long boardOf(String member) {
        return Long.parseLong(member.substring(member.indexOf(':') + 1));
    }
}
