package dev.pinfeed.feedstore.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.PinfeedConfig;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class HBaseLayoutTest {

    private static PinfeedConfig config(String... keyValues) {
        Properties p = new Properties();
        p.setProperty("hbase.primary.zookeeper", "127.0.0.1:12181");
        p.setProperty("hbase.standby.zookeeper", "127.0.0.1:12182");
        for (int i = 0; i < keyValues.length; i += 2) p.setProperty(keyValues[i], keyValues[i + 1]);
        return PinfeedConfig.of(p);
    }

    @Test
    void by_default_the_pools_live_on_the_primary_and_the_materialized_feed_on_the_standby_cluster() {
        HBaseLayout layout = HBaseLayout.from(config());

        assertThat(layout).isEqualTo(HBaseLayout.SPLIT);
        assertThat(layout.split()).isTrue();
        assertThat(layout.home(HBaseStage.POOLS)).isEqualTo(HBaseClusters.PRIMARY);
        assertThat(layout.standbyOf(HBaseStage.POOLS)).isEqualTo(HBaseClusters.STANDBY);
        assertThat(layout.home(HBaseStage.MATERIALIZED)).isEqualTo(HBaseClusters.STANDBY);
        assertThat(layout.standbyOf(HBaseStage.MATERIALIZED)).isEqualTo(HBaseClusters.PRIMARY);
        assertThat(layout.stagesOn(HBaseClusters.PRIMARY)).containsExactly(HBaseStage.POOLS);
        assertThat(layout.stagesOn(HBaseClusters.STANDBY)).containsExactly(HBaseStage.MATERIALIZED);
    }

    @Test
    void both_stages_on_one_cluster_is_the_single_cluster_layout_whose_other_cluster_is_a_replica_of_both() {
        HBaseLayout layout = HBaseLayout.from(config("hbase.materialized.cluster", "primary"));

        assertThat(layout).isEqualTo(HBaseLayout.SINGLE);
        assertThat(layout.split()).isFalse();
        assertThat(layout.stagesOn(HBaseClusters.PRIMARY)).containsExactly(HBaseStage.POOLS, HBaseStage.MATERIALIZED);
        assertThat(layout.stagesOn(HBaseClusters.STANDBY)).isEmpty();
        assertThat(layout.standbyOf(HBaseStage.MATERIALIZED)).isEqualTo(HBaseClusters.STANDBY);
    }

    @Test
    void the_stages_may_be_swapped_and_cluster_names_are_accepted_as_well_as_primary_and_standby() {
        HBaseLayout layout = HBaseLayout.from(config("hbase.pools.cluster", "hbase-standby", "hbase.materialized.cluster", " Primary "));

        assertThat(layout.home(HBaseStage.POOLS)).isEqualTo(HBaseClusters.STANDBY);
        assertThat(layout.home(HBaseStage.MATERIALIZED)).isEqualTo(HBaseClusters.PRIMARY);
        assertThat(layout.stagesOn(HBaseClusters.STANDBY)).isEqualTo(List.of(HBaseStage.POOLS));
    }

    @Test
    void an_unknown_cluster_is_refused_naming_the_key() {
        assertThatThrownBy(() -> HBaseLayout.from(config("hbase.materialized.cluster", "hbase-c")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("hbase.materialized.cluster").hasMessageContaining("hbase-c");
        assertThatThrownBy(() -> new HBaseLayout("pools", HBaseClusters.PRIMARY)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void each_cluster_name_resolves_to_its_own_zookeeper_quorum_and_a_stage_to_its_home_clusters() {
        PinfeedConfig c = config("hbase.pools.cluster", "standby");

        assertThat(HBaseClusters.zookeeper(c, HBaseClusters.PRIMARY)).isEqualTo("127.0.0.1:12181");
        assertThat(HBaseClusters.zookeeper(c, HBaseClusters.STANDBY)).isEqualTo("127.0.0.1:12182");
        assertThat(HBaseClusters.zookeeper(c, HBaseStage.POOLS)).isEqualTo("127.0.0.1:12182");
        assertThat(HBaseClusters.zookeeper(c, HBaseStage.MATERIALIZED)).isEqualTo("127.0.0.1:12182");
        assertThat(HBaseLayout.other(HBaseClusters.PRIMARY)).isEqualTo(HBaseClusters.STANDBY);
    }

    @Test
    void each_stage_keeps_its_own_table_and_heartbeat_row_which_no_pool_or_feed_row_is_shaped_like() {
        assertThat(HBaseStage.of(HBaseClusters.POOLS)).isEqualTo(HBaseStage.POOLS);
        assertThat(HBaseStage.of(HBaseClusters.MATERIALIZED_FEED)).isEqualTo(HBaseStage.MATERIALIZED);
        for (HBaseStage s : HBaseStage.values()) {
            assertThat(s.heartbeatRow).hasSize(9);
            assertThat(s.heartbeatRow[8]).isGreaterThan((byte) 6); // every user row's 9th byte is a kind, 0..6
            assertThat(s.heartbeatRow[0] & 0xC0).isNotZero(); // a reserved id bit: no user's range holds it
        }
        assertThat(PoolKeys.isEntryRow(HBaseStage.POOLS.heartbeatRow)).isFalse();
        assertThat(PoolKeys.isIndexRow(HBaseStage.POOLS.heartbeatRow)).isFalse();
        assertThat(PoolKeys.isShownRow(HBaseStage.POOLS.heartbeatRow)).isFalse();
    }
}
