package dev.pinfeed.operations.provision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.operations.OperationsCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import dev.pinfeed.feedstore.hbase.HBaseClusters;
import dev.pinfeed.feedstore.hbase.HBaseLayout;
import dev.pinfeed.feedstore.hbase.HBaseStage;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.replication.ReplicationPeerDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(StackExtension.class)
class ProvisionIT {

    @Test
    void provisioningTheRunningStackAgainChangesNothingAndSeedsTheLiveShardMap(TestStack stack) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OperationsCli.run(stack::config, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "provision");
        assertThat(code).as("exit code; stderr: %s", err).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("provisioning against");
        try (CuratorFramework zk = CuratorClients.start(stack.config())) {
            String map = new String(zk.getData().forPath(MysqlShardConfig.ZNODE), StandardCharsets.UTF_8);
            assertThat(MysqlShardMap.parse(map, MysqlShardMap.HostAddresses.from(stack.config())).shardCount())
                    .isEqualTo(MysqlShardMap.from(stack.config()).shardCount());
        }
    }

    /**
     * A stack provisioned when both stages lived on the primary (its peer {@code standby} shipping both tables, no peer on
     * the standby cluster) is converted by provisioning again: each cluster's peer ships the tables of its own stages.
     * Changes the shared stack's peers for a few seconds (and puts them back as configured).
     */
    @Test
    void provisioningConvertsASingleClusterStackToEachClusterShippingItsOwnStage(TestStack stack) throws Exception {
        HBaseLayout layout = HBaseLayout.from(stack.config());
        TableName pools = TableName.valueOf("pinfeed", "pools");
        TableName feed = TableName.valueOf("pinfeed", "materialized_feed");
        try (org.apache.hadoop.hbase.client.Connection primary = ConnectionFactory.createConnection(
                HBaseClusters.clientConfiguration(stack.config().hbasePrimaryZookeeper()));
             org.apache.hadoop.hbase.client.Connection standby = ConnectionFactory.createConnection(
                HBaseClusters.clientConfiguration(stack.config().hbaseStandbyZookeeper()));
             Admin onPrimary = primary.getAdmin(); Admin onStandby = standby.getAdmin()) {
            // The single-cluster provisioning of old: the primary ships both, the standby nothing.
            ReplicationPeerConfig old = onPrimary.getReplicationPeerConfig("standby");
            onPrimary.updateReplicationPeerConfig("standby", ReplicationPeerConfig.newBuilder(old)
                    .setTableCFsMap(Map.of(pools, List.of("p"), feed, List.of("f"))).build());
            if (onStandby.listReplicationPeers().stream().anyMatch(d -> d.getPeerId().equals("primary"))) onStandby.removeReplicationPeer("primary");

            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = OperationsCli.run(stack::config, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8), "provision");
            assertThat(code).as("exit code; stderr: %s", err).isZero();

            Map<HBaseStage, String> homes = Map.of(HBaseStage.POOLS, layout.home(HBaseStage.POOLS),
                    HBaseStage.MATERIALIZED, layout.home(HBaseStage.MATERIALIZED));
            Set<TableName> fromPrimary = homes.entrySet().stream().filter(e -> e.getValue().equals(HBaseClusters.PRIMARY))
                    .map(e -> e.getKey().table()).collect(Collectors.toSet());
            Set<TableName> fromStandby = homes.entrySet().stream().filter(e -> e.getValue().equals(HBaseClusters.STANDBY))
                    .map(e -> e.getKey().table()).collect(Collectors.toSet());
            assertThat(onPrimary.getReplicationPeerConfig("standby").getTableCFsMap().keySet()).isEqualTo(fromPrimary);
            Optional<ReplicationPeerDescription> back = onStandby.listReplicationPeers().stream()
                    .filter(d -> d.getPeerId().equals("primary")).findFirst();
            if (fromStandby.isEmpty()) {
                assertThat(back).isEmpty();
            } else {
                assertThat(back).isPresent();
                assertThat(back.get().isEnabled()).isTrue();
                assertThat(back.get().getPeerConfig().getTableCFsMap().keySet()).isEqualTo(fromStandby);
                assertThat(back.get().getPeerConfig().getClusterKey()).endsWith(":/hbase")
                        .contains(stack.config().hbasePrimaryZookeeper().split(":")[1]);
            }
            System.out.println(out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("hbase")).collect(Collectors.joining("\n")));
        }
    }
}
