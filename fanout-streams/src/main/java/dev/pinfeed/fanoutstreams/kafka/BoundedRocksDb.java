package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.config.PinfeedConfig;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * Bounds the memory of every RocksDB store of the process together (Kafka Streams' bounded-memory recipe): one
 * block cache for all of them, with their memtables, index and filter blocks charged to it. Without it each store
 * takes its own 50 MB cache and up to three 16 MB memtables: the fan-out's and the related pins' 18 stores could
 * grow the process by ~2 GB off the heap, and did grow it by hundreds of MB under a stream of likes. The bound is
 * {@code fanout.rocksdb.memory-mb} (default 32) for the process, whichever topology opens a store first; the
 * stores hold small per-key state that the OS page cache keeps hot beyond it.
 */
public final class BoundedRocksDb implements RocksDBConfigSetter {

    /** The key of the bound in a topology's properties: Kafka Streams hands its properties to every store's setter. */
    static final String MEMORY_BYTES = "pinfeed.rocksdb.memory.bytes";
    static final int DEFAULT_MEMORY_MB = 32;
    /** A store's memtable: its share of the bound fills it, then it is flushed to a file. */
    private static final long MEMTABLE_BYTES = 4L << 20;

    private static Shared shared;

    /** The cache and the memtables' accounting, one per process: every store's setter gets the same. */
    private record Shared(Cache cache, WriteBufferManager writeBuffers) {}

    /** {@code properties} with this setter and the configured bound. */
    static Properties applyTo(Properties properties, PinfeedConfig config) {
        int mb = config.getInt("fanout.rocksdb.memory-mb", DEFAULT_MEMORY_MB);
        if (mb < 8) throw new IllegalArgumentException("fanout.rocksdb.memory-mb must be at least 8: " + mb);
        properties.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDb.class);
        properties.put(MEMORY_BYTES, Long.toString((long) mb << 20));
        return properties;
    }

    private static synchronized Shared shared(Map<String, Object> configs) {
        if (shared == null) {
            Object configured = configs.get(MEMORY_BYTES);
            long bytes = configured == null ? (long) DEFAULT_MEMORY_MB << 20 : Long.parseLong(configured.toString());
            // Index and filter blocks go to the cache's high-priority part, so data blocks are evicted first.
            Cache cache = new LRUCache(bytes, -1, false, 0.1);
            // Memtables are charged to the cache: half of the bound at most (flushed early when it is reached).
            shared = new Shared(cache, new WriteBufferManager(bytes / 2, cache));
        }
        return shared;
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        Shared s = shared(configs);
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(s.cache());
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setWriteBufferManager(s.writeBuffers());
        options.setWriteBufferSize(MEMTABLE_BYTES);
        options.setMaxWriteBufferNumber(2);
        options.setTableFormatConfig(table);
    }

    @Override
    public void close(String storeName, Options options) {
        // The cache and the write buffer manager are shared by every store of the process: never closed with one.
    }
}
