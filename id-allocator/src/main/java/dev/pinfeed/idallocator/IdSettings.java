package dev.pinfeed.idallocator;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The id-allocator's configuration keys, with defaults (all overridable like any pinfeed key):
 * <ul>
 *   <li>{@code ids.open-shards}: where new users go; default every shard of {@code mysql.shards};</li>
 *   <li>{@code ids.block-size}: local IDs per lease, default {@value ShardedIdAllocator#DEFAULT_BLOCK_SIZE};</li>
 *   <li>{@code ids.time.epoch}: epoch of the time-sortable layout (ISO-8601 instant), default 2026-01-01T00:00:00Z;</li>
 *   <li>{@code ids.time.max-backward-wait-ms}: how long to wait out a clock that went back, default 100.</li>
 * </ul>
 */
public record IdSettings(OpenShards openShards, int blockSize, Instant epoch, Duration maxBackwardWait) {

    public static final String OPEN_SHARDS = "ids.open-shards";
    public static final String BLOCK_SIZE = "ids.block-size";
    public static final String EPOCH = "ids.time.epoch";
    public static final String MAX_BACKWARD_WAIT_MS = "ids.time.max-backward-wait-ms";
    static final int DEFAULT_MAX_BACKWARD_WAIT_MS = 100;

    public static IdSettings from(PinfeedConfig config) {
        MysqlShardMap shardMap = MysqlShardMap.from(config);
        OpenShards open = OpenShards.parse(config.get(OPEN_SHARDS, "0-" + (shardMap.shardCount() - 1)));
        if (open.lastShard() >= shardMap.shardCount()) {
            throw new IllegalStateException(OPEN_SHARDS + " " + open + " opens shards that mysql.shards ("
                    + shardMap.format() + ") places on no host");
        }
        int blockSize = config.getInt(BLOCK_SIZE, ShardedIdAllocator.DEFAULT_BLOCK_SIZE);
        if (blockSize < 1 || blockSize > SequenceStore.MAX_BLOCK_SIZE) {
            throw new IllegalStateException(BLOCK_SIZE + " " + blockSize + " is out of range 1-" + SequenceStore.MAX_BLOCK_SIZE);
        }
        Instant epoch;
        try {
            epoch = Instant.parse(config.get(EPOCH, TimeSortableLayout.DEFAULT_EPOCH.toString()));
        } catch (DateTimeParseException e) {
            throw new IllegalStateException(EPOCH + " is not an ISO-8601 instant like 2026-01-01T00:00:00Z: " + config.get(EPOCH, ""));
        }
        int waitMs = config.getInt(MAX_BACKWARD_WAIT_MS, DEFAULT_MAX_BACKWARD_WAIT_MS);
        if (waitMs < 0) throw new IllegalStateException(MAX_BACKWARD_WAIT_MS + " must be >= 0, is " + waitMs);
        return new IdSettings(open, blockSize, epoch, Duration.ofMillis(waitMs));
    }

    public TimeSortableLayout timeLayout() {
        return new TimeSortableLayout(epoch);
    }
}
