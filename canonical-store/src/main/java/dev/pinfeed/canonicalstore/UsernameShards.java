package dev.pinfeed.canonicalstore;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The one owner of where a username's index row lives ({@link CanonicalLayout#USERNAMES}): the logical shard (of the first 4096, the
 * seed's initial count) its CRC-32C hashes to. The modulus is a constant, not the configured shard
 * count: growing the shard map must not move every name (that would break uniqueness).
 */
public final class UsernameShards {

    /** Shards 0..4095 hold the index, whatever the shard map grows to. */
    public static final int INDEX_SHARDS = 4096;

    private UsernameShards() {}

    public static int shardOf(String username) {
        CRC32C crc = new CRC32C();
        crc.update(username.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % INDEX_SHARDS);
    }
}
