package dev.pinfeed.fanoutstreams.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.PinfeedConfig;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Options;

class BoundedRocksDbTest {

    private static PinfeedConfig config(String memoryMb) {
        Properties p = new Properties();
        p.setProperty("fanout.rocksdb.memory-mb", memoryMb);
        return PinfeedConfig.of(p);
    }

    @Test
    void theTopologiesPropertiesCarryTheSetterAndTheConfiguredBound() {
        Properties p = BoundedRocksDb.applyTo(new Properties(), config("48"));

        assertThat(p.get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG)).isEqualTo(BoundedRocksDb.class);
        assertThat(p.get(BoundedRocksDb.MEMORY_BYTES)).isEqualTo(Long.toString(48L << 20));
        assertThat(BoundedRocksDb.applyTo(new Properties(), PinfeedConfig.of(new Properties())).get(BoundedRocksDb.MEMORY_BYTES))
                .isEqualTo(Long.toString((long) BoundedRocksDb.DEFAULT_MEMORY_MB << 20));
    }

    @Test
    void aBoundTooSmallForAMemtableIsRefused() {
        assertThatThrownBy(() -> BoundedRocksDb.applyTo(new Properties(), config("4")))
                .hasMessageContaining("fanout.rocksdb.memory-mb");
    }

    @Test
    void everyStoreGetsSmallMemtablesChargedToTheSharedCacheAndItsIndexesInIt() {
        BoundedRocksDb setter = new BoundedRocksDb();
        try (Options options = new Options()) {
            options.setTableFormatConfig(new BlockBasedTableConfig()); // as Kafka Streams' RocksDB store does before the setter
            long defaultMemtable = options.writeBufferSize();
            setter.setConfig("store-a", options, Map.of(BoundedRocksDb.MEMORY_BYTES, Long.toString(32L << 20)));

            assertThat(options.writeBufferSize()).isEqualTo(4L << 20).isLessThan(defaultMemtable);
            assertThat(options.maxWriteBufferNumber()).isEqualTo(2);
            BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
            assertThat(table.cacheIndexAndFilterBlocks()).isTrue();
            assertThat(table.cacheIndexAndFilterBlocksWithHighPriority()).isTrue();
            setter.close("store-a", options);
        }
    }
}
