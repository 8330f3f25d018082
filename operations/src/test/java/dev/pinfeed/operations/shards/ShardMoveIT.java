package dev.pinfeed.operations.shards;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.operations.CliRun;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code ./pinfeed shards move|finalize|status} on the real shard hosts while writers and readers run.
 * The test has a map of its own (its own znodes) that adds shards 4096-4103 on mysql001 to the shared
 * map, so the databases it moves (db04096..) are ones no other test touches; the writers go through
 * {@link ShardDataSources} on that live map, as every service's writes do, and retry what the store
 * reports unavailable, as the processors do.
 */
@ExtendWith(StackExtension.class)
class ShardMoveIT {

    private static final int FIRST = 4096;
    private static final int LAST = 4103;
    private static final String MOVING = "4096-4099";

    private static TestStack stack;
    private static PinfeedConfig config;
    private static CuratorFramework zk;
    private static MysqlShardConfig live;
    private static ShardDataSources sources;

    @BeforeAll
    static void setUp(TestStack s) throws Exception {
        stack = s;
        config = PrivateShardMap.config(s, "shard-move", FIRST + "-" + LAST + ":mysql001");
        dropTestDatabases();
        PrivateShardMap.createShardDatabases(s, "mysql001", FIRST, LAST);
        zk = CuratorClients.start(config);
        live = MysqlShardConfig.watch(zk, config);
        sources = ShardDataSources.from(config, live, "shard-move-it", 4, Map.of());
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (sources != null) sources.close();
        if (live != null) live.close();
        if (zk != null) zk.close();
        dropTestDatabases();
    }

    @Test
    void movesARangeWhileWritersRunLosesNothingAndUndoBringsBackWhatWasWrittenSince() throws Exception {
        try (Writers writers = new Writers()) {
            writers.awaitAcknowledged(200);
            CliRun move = CliRun.of(config, null, "shards", "move", "--shards", MOVING, "--to", "mysql002");
            assertThat(move.code()).as(move.out() + move.err()).isZero();
            writers.awaitAcknowledged(writers.acknowledged() + 200);
            writers.stop();
            System.out.println(move.out().strip().lines().map(l -> "[shard-move-it] " + l).collect(java.util.stream.Collectors.joining("\n")) + "\n[shard-move-it] writers: " + writers.report());

            assertThat(writers.failures()).as("writes that gave up, reads that failed").isEmpty();
            assertThat(live.current().hostOf(FIRST)).isEqualTo("mysql002");
            assertThat(live.current().hostOf(LAST)).isEqualTo("mysql001");
            assertThat(live.current().fences()).isEmpty();
            assertEveryAcknowledgedRowOn(writers, "mysql002", "mysql001");
            assertThat(databases("mysql001")).contains("db04096__moved").doesNotContain("db04096");
            // The writers' pause: every write of the moving range waited for the cutover, none longer than the fence allows.
            assertThat(writers.maxLatencyMillis()).isLessThan(ShardDataSources.FENCE_WAIT.toMillis());

            CliRun status = CliRun.of(config, null, "shards", "status");
            assertThat(status.out()).contains(MOVING + " from mysql001 to mysql002: moved").containsPattern("2048-4099\\s+mysql002");
        }

        try (Writers writers = new Writers()) {
            writers.awaitAcknowledged(200);
            CliRun undo = CliRun.of(config, null, "shards", "move", "--shards", MOVING, "--undo");
            assertThat(undo.code()).as(undo.out() + undo.err()).isZero();
            writers.awaitAcknowledged(writers.acknowledged() + 200);
            writers.stop();
            assertThat(writers.failures()).isEmpty();
            assertThat(live.current().hostOf(FIRST)).isEqualTo("mysql001");
            // Rows written while the range lived on mysql002 came back with it.
            assertEveryAcknowledgedRowOn(writers, "mysql001", "mysql001");
            assertThat(databases("mysql002")).doesNotContain("db04096", "db04096__moved");
            assertThat(CliRun.of(config, null, "shards", "status").out()).contains("no moves under way");
        }

        CliRun again = CliRun.of(config, null, "shards", "move", "--shards", MOVING, "--to", "mysql002");
        assertThat(again.code()).as(again.out() + again.err()).isZero();
        CliRun fin = CliRun.of(config, null, "shards", "finalize", "--shards", MOVING);
        assertThat(fin.code()).as(fin.out() + fin.err()).isZero();
        assertThat(databases("mysql001")).doesNotContain("db04096__moved", "db04096");
        assertThat(databases("mysql002")).contains("db04096", "db04099");
        assertThat(CliRun.of(config, null, "shards", "move", "--shards", MOVING, "--undo").err()).contains("no move of shards 4096-4099");
    }

    @Test
    void undoRollsBackAMoveWhoseMoverDiedInTheCutover() throws Exception {
        // What a mover killed -9 mid-cutover leaves: the record, the fence, the source's tables renamed away, a partial copy.
        List<String> dbs = List.of("db04100", "db04101");
        try (Connection c = admin("mysql001"); Statement st = c.createStatement()) {
            st.execute("INSERT INTO db04100.users (local_id, data) VALUES (" + stack.freshId() + ", '{\"n\":\"survivor\"}')");
        }
        long rows = count("mysql001", "db04100");
        ShardMoves.mysql(zk, config).begin(new ShardMoves.Move(4100, 4101, "mysql001", "mysql002", ShardMoves.Phase.CUTOVER, null));
        MysqlShardConfig.update(zk, MysqlShardConfig.znode(config), MysqlShardMap.HostAddresses.from(config), m -> m.fencing(4100, 4101));
        try (Connection c = admin("mysql001"); Connection target = admin("mysql002"); Statement st = target.createStatement()) {
            MysqlShardMover.rename(c, dbs, TableShapes.of(c, "db04100").tables(), java.util.function.UnaryOperator.identity(), MysqlShardMover::movedAway);
            st.execute("CREATE DATABASE db04100");
        }

        CliRun undo = CliRun.of(config, null, "shards", "move", "--shards", "4100-4101", "--undo");

        assertThat(undo.code()).as(undo.out() + undo.err()).isZero();
        assertThat(undo.out()).contains("rolled back the unfinished move of shards 4100-4101");
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> live.current().fences().isEmpty());
        assertThat(live.current().hostOf(4100)).isEqualTo("mysql001");
        assertThat(count("mysql001", "db04100")).isEqualTo(rows);
        assertThat(databases("mysql001")).contains("db04100", "db04101").doesNotContain("db04100__moved", "db04101__moved");
        assertThat(databases("mysql002")).doesNotContain("db04100");
        assertThat(CliRun.of(config, null, "shards", "status").out()).contains("no moves under way");
    }

    private static long count(String host, String db) throws SQLException {
        try (Connection c = admin(host); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + db + ".users")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void aMoveStoppedByCtrlCBeforeItsCutoverLeavesTheRangeWhereItWasAndDropsThePartialCopy() throws Exception {
        MysqlShardMap before = live.current();
        MysqlShardMover mover = new MysqlShardMover(config, zk, line -> {}, line -> {}, () -> true, java.time.Clock.systemUTC());

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> mover.move(4102, 4103, "mysql002")).hasMessageContaining("interrupted");

        assertThat(live.current()).isEqualTo(before);
        assertThat(ShardMoves.mysql(zk, config).all()).isEmpty();
        assertThat(databases("mysql002")).doesNotContain("db04102", "db04103");
        assertThat(databases("mysql001")).contains("db04102", "db04103");
    }

    @Test
    void refusesARangeOnTwoHostsAndAnUnknownHostWithOneLineAndChangesNothing() {
        MysqlShardMap before = live.current();
        CliRun twoHosts = CliRun.of(config, null, "shards", "move", "--shards", "2040-2050", "--to", "mysql002");
        assertThat(twoHosts.code()).isNotZero();
        assertThat(twoHosts.err().strip()).contains("live on more than one host").doesNotContain("\n");
        CliRun unknown = CliRun.of(config, null, "shards", "move", "--shards", "4102-4103", "--to", "mysql009");
        assertThat(unknown.code()).isNotZero();
        assertThat(unknown.err()).contains("no MySQL host 'mysql009'");
        CliRun tooMany = CliRun.of(config, null, "shards", "move", "--shards", "0-1023", "--to", "mysql002");
        assertThat(tooMany.code()).isEqualTo(2);
        assertThat(tooMany.err()).contains("move at most 128 shards at a time");
        CliRun usage = CliRun.of(config, null, "shards", "move", "--shards", "x-y", "--to", "mysql002");
        assertThat(usage.code()).isEqualTo(2);
        assertThat(live.current()).isEqualTo(before);
    }

    // ---- writers and readers on the live map

    /** Writes rows into random shards of 4096-4103 and reads acknowledged ones back, until stopped. */
    private static final class Writers extends MoveTraffic<Integer> {

        Writers() {
            start("shard-move-it");
        }

        @Override
        void writeOne() {
            int shard = ThreadLocalRandom.current().nextInt(FIRST, LAST + 1);
            long id = stack.freshId();
            acknowledgeAfter(id, shard, () -> {
                String host = sources.hostOf(shard);
                try (Connection c = sources.connection(host); PreparedStatement p = c.prepareStatement(
                        "INSERT INTO " + MysqlShardMap.databaseName(shard) + ".users (local_id, data) VALUES (?, '{}')")) {
                    p.setLong(1, id);
                    p.executeUpdate();
                }
            }, e -> e instanceof StoreUnavailableException || e instanceof SQLException sql && ShardDataSources.isUnavailable(sql));
        }

        @Override
        void readOne(Map.Entry<Long, Integer> row) {
            for (int attempt = 1; ; attempt++) {
                try (Connection c = sources.connection(sources.hostOf(row.getValue())); Statement st = c.createStatement();
                     ResultSet rs = st.executeQuery("SELECT local_id FROM " + MysqlShardMap.databaseName(row.getValue())
                             + ".users WHERE local_id = " + row.getKey())) {
                    if (!rs.next()) fail("read of acknowledged row " + row.getKey() + " in shard " + row.getValue() + " found nothing");
                    return;
                } catch (StoreUnavailableException | SQLException e) {
                    // A read that looked the host up just before the rename is told to look again, like a write.
                    if (attempt == 50) {
                        fail("read " + row.getKey() + ": " + e.getMessage());
                        return;
                    }
                    MoveTraffic.sleep(20);
                }
            }
        }
    }

    private static void assertEveryAcknowledgedRowOn(Writers writers, String movingHost, String stayingHost) throws SQLException {
        List<String> missing = new ArrayList<>();
        for (Map.Entry<Long, Integer> row : writers.acknowledged.entrySet()) {
            String host = row.getValue() <= 4099 ? movingHost : stayingHost;
            try (Connection c = admin(host); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT 1 FROM " + MysqlShardMap.databaseName(row.getValue()) + ".users WHERE local_id = " + row.getKey())) {
                if (!rs.next()) missing.add(row.getKey() + " (shard " + row.getValue() + ") not on " + host);
            }
        }
        assertThat(missing).as("acknowledged rows missing").isEmpty();
    }

    // ---- helpers

    private static Connection admin(String host) throws SQLException {
        return PrivateShardMap.admin(stack, host);
    }

    private static List<String> databases(String host) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = admin(host); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE 'db0409%' OR schema_name LIKE 'db0410%'")) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }

    private static void dropTestDatabases() throws SQLException {
        for (String host : List.of("mysql001", "mysql002")) {
            try (Connection c = admin(host); Statement st = c.createStatement()) {
                for (int shard = FIRST; shard <= LAST; shard++) {
                    String db = MysqlShardMap.databaseName(shard);
                    st.execute("DROP DATABASE IF EXISTS " + db);
                    st.execute("DROP DATABASE IF EXISTS " + db + MysqlShardMover.MOVED_SUFFIX);
                }
            }
        }
    }
}
