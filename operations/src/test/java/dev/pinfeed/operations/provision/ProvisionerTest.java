package dev.pinfeed.operations.provision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.PinfeedConfig;
import java.nio.file.Path;
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
}
