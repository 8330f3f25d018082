package dev.pinfeed.mysqlshards;

import dev.pinfeed.config.zookeeper.CuratorClients;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.mysqlshards.MysqlShardMap.HostAddresses;
import dev.pinfeed.mysqlshards.MysqlShardMap.Range;
import dev.pinfeed.mysqlshards.ShardDataSources;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The live MySQL shard map against the stack's ZooKeeper and MariaDB hosts. Each test watches a
 * znode of its own (never the stack's {@code /pinfeed/config/mysql-shards}, which other tests read).
 */
@ExtendWith(StackExtension.class)
class MysqlShardConfigIT {

    private static final Duration WAIT = Duration.ofSeconds(45);

    private PinfeedConfig config;
    private MysqlShardMap configured;
    private CuratorFramework zk;
    private String path;
    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeEach
    void connect(TestStack stack) {
        config = stack.config();
        configured = MysqlShardMap.from(config);
        zk = CuratorClients.start(config);
        path = "/it/mysql-shards/" + stack.uniqueName("map");
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open) c.close();
        if (zk.checkExists().forPath(path) != null) zk.delete().forPath(path);
        zk.close();
    }

    @Test
    void aRangeMovedToAnotherServerIsReachedThereWithoutARestart() throws Exception {
        write(configured.toJson());
        MysqlShardConfig shards = watch();
        ShardDataSources sources = pools(shards);
        HostPort first = configured.master("mysql001");
        HostPort second = configured.master("mysql002");
        assertThat(port(sources, 1500)).isEqualTo(first.port());

        // Shards 1024-2047 move from mysql001 to mysql002's server.
        Range a = configured.rangeOf(0);
        Range b = configured.rangeOf(2048);
        write(MysqlShardMap.of(List.of(new Range(0, 1023, a.host(), a.master(), a.replica()),
                new Range(1024, 2047, b.host(), b.master(), b.replica()), b)).toJson());

        await().atMost(WAIT).until(() -> shards.current().hostOf(1500).equals("mysql002"));
        assertThat(port(sources, 1500)).isEqualTo(second.port());
        assertThat(port(sources, 1023)).isEqualTo(first.port());
        assertThat(shards.rejectedUpdates()).isZero();
    }

    @Test
    void aFailedOverMasterGetsANewPoolAndTheOldOneClosesOnceItsBorrowerReturns() throws Exception {
        write(configured.toJson());
        MysqlShardConfig shards = watch();
        ShardDataSources sources = pools(shards);
        HostPort master = configured.master("mysql001");
        HostPort replica = configured.host("mysql001").replica();
        Connection held = sources.forShard(0).getConnection();

        // The seed's failover: mysql001's replica is promoted, the map names it as the master.
        write(configured.toJson().replace("\"master\":\"" + master + "\"", "\"master\":\"" + replica + "\""));

        await().atMost(WAIT).until(() -> shards.current().master("mysql001").equals(replica));
        assertThat(port(sources, 0)).isEqualTo(replica.port());
        assertThat(sources.poolAddresses()).doesNotContain(master);
        assertThat(sources.retiringPools()).as("the old pool waits for its borrower").isEqualTo(1);
        assertThat(port(held)).as("a borrowed connection finishes its work").isEqualTo(master.port());

        held.close();

        await().atMost(WAIT).until(() -> sources.retiringPools() == 0);
    }

    @Test
    void aBadEditIsRefusedCountedAndTheOldMapStays() throws Exception {
        write(configured.toJson());
        MysqlShardConfig shards = watch();
        ShardDataSources sources = pools(shards);
        Range first = configured.ranges().get(0);
        String gap = configured.toJson().replace("\"first\":" + (first.last() + 1) + ",", "\"first\":" + (first.last() + 2) + ",");
        List<String> bad = List.of(
                "{\"version\":1,\"ranges\":[", // unparsable
                gap,
                "{\"version\":1,\"ranges\":[{\"first\":0,\"last\":9,\"host\":\"a\",\"master\":\"h:1\"},{\"first\":5,\"last\":4095,\"host\":\"b\",\"master\":\"h:2\"}]}",
                MysqlShardMap.of(List.of(first)).toJson(), // shrinks
                configured.toJson().replace("\"master\":\"" + first.master() + "\",", "")); // no master

        for (int i = 0; i < bad.size(); i++) {
            write(bad.get(i));
            int refused = i + 1;
            await().atMost(WAIT).until(() -> shards.rejectedUpdates() == refused);
            assertThat(shards.current()).isEqualTo(configured);
        }
        assertThat(shards.lastRejection()).hasValueSatisfying(r -> {
            assertThat(r.reason()).contains("no \"master\"");
            assertThat(r.content()).isEqualTo(bad.get(bad.size() - 1));
        });
        assertThat(port(sources, 0)).isEqualTo(configured.master("mysql001").port());

        // The watch goes on: the next good edit (legacy form, addresses from the map in force) is taken.
        write("0-4095:mysql002");
        await().atMost(WAIT).until(() -> shards.current().hostOf(0).equals("mysql002"));
        assertThat(port(sources, 0)).isEqualTo(configured.master("mysql002").port());
    }

    @Test
    void aDeletedZnodeKeepsTheLastGoodMap() throws Exception {
        write(configured.toJson());
        MysqlShardConfig shards = watch();
        ShardDataSources sources = pools(shards);

        zk.delete().forPath(path);
        // Recreated with something unusable: once that is refused, the deletion was seen before it.
        write("not a map");
        await().atMost(WAIT).until(() -> shards.rejectedUpdates() == 1);

        assertThat(shards.current()).isEqualTo(configured);
        assertThat(port(sources, 4095)).isEqualTo(configured.master("mysql002").port());
    }

    @Test
    void withoutAZnodeTheConfiguredMapHoldsUntilOneAppears() throws Exception {
        MysqlShardConfig shards = watch();
        assertThat(shards.current()).isEqualTo(configured);

        write("0-2047:mysql002,2048-4095:mysql001");

        await().atMost(WAIT).until(() -> shards.current().hostOf(0).equals("mysql002"));
    }

    @Test
    void anUnusableStoredMapFailsTheStart() throws Exception {
        write("0-1023:mysql001"); // fewer shards than the configuration has

        assertThatThrownBy(this::watch).isInstanceOf(IllegalStateException.class).hasMessageContaining(path).hasMessageContaining("shrink");
    }

    @Test
    void provisioningSeedsUpgradesAndKeeps() throws Exception {
        HostAddresses addresses = HostAddresses.from(config);
        assertThat(MysqlShardConfig.provision(zk, path, configured, addresses)).isEqualTo(MysqlShardConfig.Provisioned.SEEDED);
        assertThat(read()).isEqualTo(configured.toJson());

        String moved = "0-1023:mysql001,1024-4095:mysql002"; // an operator's legacy edit: its ranges must survive
        write(moved);
        assertThat(MysqlShardConfig.provision(zk, path, configured, addresses)).isEqualTo(MysqlShardConfig.Provisioned.UPGRADED);
        assertThat(read()).isEqualTo(MysqlShardMap.parse(moved, addresses).toJson());

        String failedOver = read().replace("\"master\":\"" + configured.master("mysql001") + "\"",
                "\"master\":\"" + configured.host("mysql001").replica() + "\"");
        write(failedOver);
        assertThat(MysqlShardConfig.provision(zk, path, configured, addresses)).isEqualTo(MysqlShardConfig.Provisioned.KEPT);
        assertThat(read()).isEqualTo(failedOver);

        write("0-10:mysql001,12-4095:mysql002");
        assertThatThrownBy(() -> MysqlShardConfig.provision(zk, path, configured, addresses))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("should start at 11");
        assertThat(read()).as("left as is").isEqualTo("0-10:mysql001,12-4095:mysql002");
    }

    private MysqlShardConfig watch() throws Exception {
        MysqlShardConfig shards = MysqlShardConfig.watch(zk, path, configured, HostAddresses.from(config));
        open.add(0, shards);
        return shards;
    }

    private ShardDataSources pools(MysqlShardConfig shards) {
        ShardDataSources sources = ShardDataSources.from(config, shards, "it", 2, Map.of());
        open.add(0, sources);
        return sources;
    }

    private void write(String text) throws Exception {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (zk.checkExists().forPath(path) == null) {
            zk.create().creatingParentsIfNeeded().forPath(path, bytes);
        } else {
            zk.setData().forPath(path, bytes);
        }
    }

    private String read() throws Exception {
        return new String(zk.getData().forPath(path), StandardCharsets.UTF_8);
    }

    private static int port(ShardDataSources sources, int shard) throws SQLException {
        try (Connection c = sources.forShard(shard).getConnection()) {
            return port(c);
        }
    }

    private static int port(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT @@port")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
