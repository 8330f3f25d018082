package dev.pinfeed.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ShardMapTest {

    @Test
    void routesShardsToHostsAndNamesDatabasesAsTheSeed() {
        ShardMap map = ShardMap.parse("0-2047:mysql001, 2048-4095:mysql002");
        assertThat(map.shardCount()).isEqualTo(4096);
        assertThat(map.hostOf(0)).isEqualTo("mysql001");
        assertThat(map.hostOf(2048)).isEqualTo("mysql002");
        assertThat(map.hostOf(4095)).isEqualTo("mysql002");
        assertThat(map.shardsOn("mysql001")).hasSize(2048);
        assertThat(ShardMap.databaseName(3429)).isEqualTo("db03429");
        assertThat(ShardMap.parse(map.format()).format()).isEqualTo(map.format());
    }

    @Test
    void rejectsGapsOverlapsAndShardsOutsideTheMap() {
        assertThatThrownBy(() -> ShardMap.parse("0-10:a,12-20:b")).hasMessageContaining("should start at 11");
        assertThatThrownBy(() -> ShardMap.parse("1-10:a")).hasMessageContaining("should start at 0");
        assertThatThrownBy(() -> ShardMap.parse("0-10")).hasMessageContaining("first-last:host");
        assertThatThrownBy(() -> ShardMap.parse("0-10:a").hostOf(11)).hasMessageContaining("outside");
    }
}
