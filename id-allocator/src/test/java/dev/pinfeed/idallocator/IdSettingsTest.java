package dev.pinfeed.idallocator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.PinfeedConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class IdSettingsTest {

    @Test
    void defaultsOpenEveryMappedShard() {
        IdSettings settings = IdSettings.from(config("mysql.shards", "0-2047:mysql001,2048-4095:mysql002"));

        assertThat(settings.openShards().toString()).isEqualTo("0-4095");
        assertThat(settings.blockSize()).isEqualTo(ShardedIdAllocator.DEFAULT_BLOCK_SIZE);
        assertThat(settings.epoch()).isEqualTo(TimeSortableLayout.DEFAULT_EPOCH);
        assertThat(settings.maxBackwardWait()).isEqualTo(Duration.ofMillis(IdSettings.DEFAULT_MAX_BACKWARD_WAIT_MS));
    }

    @Test
    void readsEveryKey() {
        IdSettings settings = IdSettings.from(config("mysql.shards", "0-8191:mysql001", IdSettings.OPEN_SHARDS, "4096-8191",
                IdSettings.BLOCK_SIZE, "5000", IdSettings.EPOCH, "2011-09-01T00:00:00Z", IdSettings.MAX_BACKWARD_WAIT_MS, "7"));

        assertThat(settings.openShards().toString()).isEqualTo("4096-8191");
        assertThat(settings.blockSize()).isEqualTo(5000);
        assertThat(settings.timeLayout().epoch()).isEqualTo(Instant.parse("2011-09-01T00:00:00Z"));
        assertThat(settings.maxBackwardWait()).isEqualTo(Duration.ofMillis(7));
    }

    @Test
    void refusesToOpenShardsNoHostHolds() {
        assertThatThrownBy(() -> IdSettings.from(config("mysql.shards", "0-4095:mysql001", IdSettings.OPEN_SHARDS, "4096-8191")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("places on no host");
    }

    @Test
    void refusesABadEpochOrBlockSize() {
        assertThatThrownBy(() -> IdSettings.from(config("mysql.shards", "0-1:h", IdSettings.EPOCH, "yesterday")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(IdSettings.EPOCH);
        assertThatThrownBy(() -> IdSettings.from(config("mysql.shards", "0-1:h", IdSettings.BLOCK_SIZE, "0")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(IdSettings.BLOCK_SIZE);
    }

    static PinfeedConfig config(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) p.setProperty(keyValues[i], keyValues[i + 1]);
        // The shard map places every host it names at an address; these tests never connect.
        for (String range : p.getProperty("mysql.shards", "").split(",")) {
            if (range.contains(":")) p.setProperty("mysql." + range.substring(range.indexOf(':') + 1).trim() + ".master", "127.0.0.1:3306");
        }
        return PinfeedConfig.of(p);
    }
}
