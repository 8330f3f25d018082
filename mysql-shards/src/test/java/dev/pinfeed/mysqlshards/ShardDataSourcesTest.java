package dev.pinfeed.mysqlshards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.StoreUnavailableException;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** What needs no server: how failures are told apart, and routing by the map in force. */
class ShardDataSourcesTest {

    private static final MysqlShardMap MAP = MysqlShardMap.parse(MysqlShardMapTest.JSON, MysqlShardMapTest.STACK);
    private static final dev.pinfeed.config.PinfeedConfig PLAIN = dev.pinfeed.config.PinfeedConfig.of(new java.util.Properties());

    @Test
    void outagesBecomeStoreUnavailableNamingTheHostAndBugsDoNot() {
        SQLException poolTimeout = new SQLTransientConnectionException("Connection is not available, request timed out after 5000ms",
                "08001", new java.net.ConnectException("Connection refused"));
        RuntimeException down = ShardDataSources.failure("mysql002", "claiming username in db00042", poolTimeout);
        assertThat(down).isInstanceOf(StoreUnavailableException.class).hasMessageContaining("Connection refused");
        assertThat(((StoreUnavailableException) down).store()).isEqualTo("mysql002");

        assertThat(ShardDataSources.isUnavailable(new SQLException("Communications link failure", "08S01"))).isTrue();
        assertThat(ShardDataSources.isUnavailable(new SQLTransactionRollbackException("Deadlock found", "40001", 1213))).isTrue();
        assertThat(ShardDataSources.isUnavailable(new SQLException("running with --read-only", "HY000", 1290))).isTrue();

        // A shard move's cutover renames a range's tables away: a caller that looked the host up just before looks again.
        assertThat(ShardDataSources.isUnavailable(new SQLSyntaxErrorException("Table 'db00042.users' doesn't exist", "42S02", 1146))).isTrue();

        RuntimeException bug = ShardDataSources.failure("mysql002", "reading", new SQLSyntaxErrorException("You have an error in your SQL syntax",
                "42000", 1064));
        assertThat(bug).isInstanceOf(IllegalStateException.class).isNotInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("mysql002");
    }

    @Test
    void aFencedShardWaitsForTheMapThatLiftsTheFenceAndFollowsItToTheNewHost() throws Exception {
        AtomicReference<MysqlShardMap> live = new AtomicReference<>(MAP.fencing(0, 63));
        try (ShardDataSources sources = new ShardDataSources(live::get, PLAIN::mysqlJdbcUrl, "u", "p", "t", 1, Map.of())) {
            assertThat(sources.hostOf(64)).isEqualTo("mysql001"); // outside the fence: no wait
            java.util.concurrent.CompletableFuture<String> waiting = java.util.concurrent.CompletableFuture.supplyAsync(() -> sources.hostOf(5));
            Thread.sleep(100);
            assertThat(waiting).isNotDone();
            live.set(MAP.fencing(0, 63).assigning(0, 63, MAP.host("mysql002")).unfencing(0, 63));
            assertThat(waiting.get(5, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("mysql002");
        }
    }

    @Test
    void everyCallRoutesByTheMapInForceAndAHostThatLeftItIsUnavailable() {
        AtomicReference<MysqlShardMap> live = new AtomicReference<>(MAP);
        try (ShardDataSources sources = new ShardDataSources(live::get, PLAIN::mysqlJdbcUrl, "u", "p", "t", 1, Map.of())) {
            assertThat(sources.hostOf(100)).isEqualTo("mysql001");

            live.set(MysqlShardMap.parse("0-4095:mysql002", MysqlShardMapTest.STACK));

            assertThat(sources.hostOf(100)).isEqualTo("mysql002");
            assertThat(sources.shardMap().hosts()).containsExactly("mysql002");
            // A caller that grouped its rows by the old map asks for a host the map no longer has.
            assertThatThrownBy(() -> sources.connection("mysql001")).isInstanceOf(StoreUnavailableException.class)
                    .satisfies(e -> assertThat(((StoreUnavailableException) e).store()).isEqualTo("mysql001"));
            assertThat(sources.poolAddresses()).isEmpty();
        }
    }

    @Test
    void aClosedSetLendsNothing() {
        ShardDataSources sources = new ShardDataSources(() -> MAP, PLAIN::mysqlJdbcUrl, "u", "p", "t", 1, Map.of());
        sources.close();
        assertThatThrownBy(() -> sources.forHost("mysql001").getConnection()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }
}
