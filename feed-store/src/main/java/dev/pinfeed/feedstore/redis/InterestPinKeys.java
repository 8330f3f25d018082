package dev.pinfeed.feedstore.redis;

import dev.pinfeed.redisshards.VirtualShards;

/**
 * The popular interests' keys ({@link dev.pinfeed.feedstore.InterestPins}), on the follower graph's Redis instances;
 * nothing else formats them or their members. An interest's pins carry its virtual shard's hash tag, as its followers
 * in the graph do; the popular set, one small key, sits on virtual shard 0's instance.
 *
 * <pre>
 * &lt;p&gt;{v&lt;s&gt;}:fs:n:&lt;I&gt;:ip        ZSET  I's newest pins: member "&lt;pin&gt;:&lt;board&gt;:&lt;author&gt;", score = creation time, epoch ms
 * &lt;p&gt;{v0}:fs:popular-interests   SET   interests with such pins
 * </pre>
 * {@code <p>} is the graph's key prefix ({@code graph.redis.key-prefix}): empty in production, a fresh one per test.
 */
public final class InterestPinKeys {

    /** The virtual shard holding the popular set. */
    static final int SET_SHARD = 0;

    private final String prefix;

    public InterestPinKeys(String prefix) {
        this.prefix = VirtualShards.checkedPrefix(prefix);
    }

    public String pins(long interest) {
        return prefix + VirtualShards.tag(interest) + ":fs:n:" + interest + ":ip";
    }

    public String popular() {
        return prefix + VirtualShards.tagOfShard(SET_SHARD) + ":fs:popular-interests";
    }

    static String member(long pin, long board, long author) {
        return pin + ":" + board + ":" + author;
    }

    /** The member's prefix naming the pin, whatever its board and author. */
    static String memberPrefix(long pin) {
        return pin + ":";
    }

    static long pinOf(String member) {
        return Long.parseLong(member.substring(0, member.indexOf(':')));
    }

    static long boardOf(String member) {
        int first = member.indexOf(':');
        return Long.parseLong(member.substring(first + 1, member.indexOf(':', first + 1)));
    }

    static long authorOf(String member) {
        return Long.parseLong(member.substring(member.lastIndexOf(':') + 1));
    }
}
