package dev.pinfeed.ingest.mysql;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The one owner of where a username's index row lives: the logical shard its CRC-32C hashes to.
 * Changing this function moves every row, so it is fixed for the life of the data.
 */
public final class UsernameShards {

    private UsernameShards() {}

    public static int shardOf(String username, int shardCount) {
        CRC32C crc = new CRC32C();
        crc.update(username.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % shardCount);
    }
}
