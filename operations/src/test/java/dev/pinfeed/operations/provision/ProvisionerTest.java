package dev.pinfeed.operations.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.hbase.HBaseClusters;
import dev.pinfeed.feedstore.hbase.HBaseLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.Test;

class ProvisionerTest {

    @Test
    void replicationClusterKeyFromAQuorum() {
        assertThat(Provisioner.clusterKey("127.0.0.1:12182")).isEqualTo("127.0.0.1:12182:/hbase");
        assertThat(Provisioner.clusterKey("zk1:2181,zk2:2181,zk3:2181")).isEqualTo("zk1,zk2,zk3:2181:/hbase");
    }

    @Test
    void shardSchemaSplitsIntoStatementsWithoutComments() {
        assertThat(Provisioner.splitStatements("-- c\nCREATE TABLE a (x INT);\n\nCREATE TABLE b (\n y INT\n);\n"))
                .containsExactly("CREATE TABLE a (x INT)", "CREATE TABLE b (\n y INT\n)");
    }

    @Test
    void theDefinitionsShipWithReplicatedFeedTables() {
        Path definitions = Path.of(System.getProperty("user.dir")).resolve("../infra/definitions").normalize();
        Provisioner p = new Provisioner(PinfeedConfig.bundledLocal(), definitions, s -> {});
        assertThat(p.hbaseTableDefinitions()).extracting(t -> t.name().getNameAsString())
                .contains("pinfeed:pools", "pinfeed:materialized_feed");
        assertThat(p.hbaseTableDefinitions()).allSatisfy(t -> assertThat(t.replicatedFamilies()).isNotEmpty());
    }

    @Test
    void eachClusterShipsTheTablesOfItsOwnStagesToTheOther() {
        Path definitions = Path.of(System.getProperty("user.dir")).resolve("../infra/definitions").normalize();
        Provisioner p = new Provisioner(PinfeedConfig.bundledLocal(), definitions, s -> {});
        var tables = p.hbaseTableDefinitions();
        TableName pools = TableName.valueOf("pinfeed", "pools");
        TableName feed = TableName.valueOf("pinfeed", "materialized_feed");

        assertThat(Provisioner.shippedFrom(HBaseClusters.PRIMARY, HBaseLayout.SPLIT, tables)).isEqualTo(Map.of(pools, List.of("p")));
        assertThat(Provisioner.shippedFrom(HBaseClusters.STANDBY, HBaseLayout.SPLIT, tables)).isEqualTo(Map.of(feed, List.of("f")));
        assertThat(Provisioner.shippedFrom(HBaseClusters.PRIMARY, HBaseLayout.SINGLE, tables)).isEqualTo(Map.of(pools, List.of("p"), feed, List.of("f")));
        assertThat(Provisioner.shippedFrom(HBaseClusters.STANDBY, HBaseLayout.SINGLE, tables)).isEmpty();
        assertThat(Provisioner.peerOn(HBaseClusters.PRIMARY)).isEqualTo("standby");
        assertThat(Provisioner.peerOn(HBaseClusters.STANDBY)).isEqualTo("primary");
    }

    @Test
    void tableCfsCompareByTablesAndFamiliesInAnyOrder() {
        TableName a = TableName.valueOf("pinfeed", "a");
        TableName b = TableName.valueOf("pinfeed", "b");
        assertThat(Provisioner.sameTableCfs(Map.of(a, List.of("x", "y")), Map.of(a, List.of("y", "x")))).isTrue();
        assertThat(Provisioner.sameTableCfs(Map.of(a, List.of("x"), b, List.of("x")), Map.of(a, List.of("x")))).isFalse();
        assertThat(Provisioner.sameTableCfs(Map.of(a, List.of("x")), Map.of(a, List.of("y")))).isFalse();
        assertThat(Provisioner.sameTableCfs(null, Map.of(a, List.of("x")))).isFalse();
    }

    @Test
    void partsParseByTheirNamesAndAnUnknownOneIsNamedWithTheChoices() {
        assertThat(Provisioner.Part.parse("mysql")).containsExactly(Provisioner.Part.MYSQL);
        assertThat(Provisioner.Part.parse("topics, registry,HBASE,znodes")).containsExactly(Provisioner.Part.TOPICS,
                Provisioner.Part.REGISTRY, Provisioner.Part.HBASE, Provisioner.Part.ZNODES);
        assertThatThrownBy(() -> Provisioner.Part.parse("topics,kafka")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no part 'kafka' (one of: topics, registry, hbase, znodes, mysql)");
    }
}
