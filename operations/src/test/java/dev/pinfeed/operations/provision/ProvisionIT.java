package dev.pinfeed.operations.provision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.operations.OperationsCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.TreeMap;
import java.util.stream.IntStream;
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

    @Test
    void onlyTheNamedPartsAreApplied_anUnknownPartIsRefusedNamingIt(TestStack stack) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OperationsCli.run(stack::config, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "provision", "--only", "znodes,registry");
        assertThat(code).as("exit code; stderr: %s", err).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("schema registry: global compatibility").contains("zookeeper /pinfeed/config/mysql-shards")
                .doesNotContain("kafka topics").doesNotContain("hbase").doesNotContain("shard databases");

        ByteArrayOutputStream refusedOut = new ByteArrayOutputStream();
        ByteArrayOutputStream refused = new ByteArrayOutputStream();
        int refusedCode = OperationsCli.run(stack::config, new PrintStream(refusedOut, true, StandardCharsets.UTF_8),
                new PrintStream(refused, true, StandardCharsets.UTF_8), "provision", "--only", "kafka");
        assertThat(refusedCode).isNotZero();
        assertThat(refused.toString(StandardCharsets.UTF_8)).contains("no part 'kafka'");
        assertThat(refusedOut.toString(StandardCharsets.UTF_8)).doesNotContain("provisioning against");
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

    /**
     * Shard databases made on several connections at once: each has every table of the schema on the master and, as soon
     * as the call returns, on the replica (which applies DDL one statement at a time, behind a master running it on
     * several connections). Shards of its own (4500-4531, past every map), dropped at the end.
     */
    @Test
    void shardDatabasesMadeOnSeveralConnectionsAreWholeOnTheMasterAndAlreadyOnTheReplica(TestStack stack) throws Exception {
        PinfeedConfig config = stack.config();
        PinfeedConfig.ReplicatedHost host = config.mysqlHosts().get(0);
        assertThat(host.replicaIfAny()).as("the stack's first MySQL host has a replica").isPresent();
        Path definitions = Path.of(System.getProperty("user.dir")).resolve("../infra/definitions").normalize();
        List<String> schema = Provisioner.shardSchema(definitions);
        List<Integer> shards = IntStream.rangeClosed(4500, 4531).boxed().toList();
        Map<String, Integer> whole = new TreeMap<>();
        shards.forEach(shard -> whole.put(MysqlShardMap.databaseName(shard), schema.size()));
        try {
            new Provisioner(config, definitions, line -> {}).createShardDatabases(host, shards, schema);
            assertThat(tablesPerDatabase(config, host.master(), whole.keySet())).as("tables per database on the master").isEqualTo(whole);
            assertThat(tablesPerDatabase(config, host.replica(), whole.keySet())).as("tables per database on the replica").isEqualTo(whole);
        } finally {
            try (Connection c = connect(config, host.master()); Statement st = c.createStatement()) {
                for (String db : whole.keySet()) st.execute("DROP DATABASE IF EXISTS " + db);
            }
        }
    }

    private static Map<String, Integer> tablesPerDatabase(PinfeedConfig config, HostPort server, Set<String> databases) throws Exception {
        Map<String, Integer> counts = new TreeMap<>();
        try (Connection c = connect(config, server); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT TABLE_SCHEMA, COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA IN ("
                     + databases.stream().map(db -> "'" + db + "'").collect(Collectors.joining(",")) + ") GROUP BY TABLE_SCHEMA")) {
            while (rs.next()) counts.put(rs.getString(1), rs.getInt(2));
        }
        return counts;
    }

    private static Connection connect(PinfeedConfig config, HostPort server) throws Exception {
        return DriverManager.getConnection(config.mysqlJdbcUrl(server), config.require("mysql.admin.user"), config.get("mysql.admin.password", ""));
    }
}
