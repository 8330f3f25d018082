package dev.pinfeed.operations.shards;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.IngestComponents;
import dev.pinfeed.ingestapi.core.IngestCommand;
import dev.pinfeed.ingestapi.core.IngestService;
import dev.pinfeed.ingestapi.kafka.FreshTopics;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.operations.CliRun;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.awaitility.Awaitility.await;

/**
 * {@code ./pinfeed shards open} and {@code new-users} against a running ingest service: its next new
 * users land on the opened shards, on the host that holds them, without a restart. The test has a map
 * of its own (its own znode) whose last shards (4096-4199, never written) are the shared map's plus a
 * range no other test uses; it opens 4200-4203 on mysql002 and drops those databases at the end.
 */
@ExtendWith(StackExtension.class)
class OpenShardsIT {

    private static final int FIRST = 4200;
    private static final int LAST = 4203;

    private static TestStack stack;
    private static PinfeedConfig config;
    private static IngestComponents ingest;

    @BeforeAll
    static void setUp(TestStack s) throws Exception {
        stack = s;
        dropOpened();
        config = PrivateShardMap.config(s, "open-shards", "4096-4199:mysql001")
                .with("ids.open-shards", "0-4095"); // 4096-4199 have no databases: nobody goes there
        ingest = new IngestComponents(config, new FreshTopics(s).overrides(), s.keyPrefix("open-shards"), new Properties());
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (ingest != null) ingest.close();
        dropOpened();
    }

    @Test
    void newUsersOfARunningServiceGoToTheOpenedShardsOnTheirHostThenBackWhereTheConfigurationSays() throws Exception {
        assertThat(shardsOfNewUsers(20)).allMatch(s -> s < 4096);

        CliRun open = CliRun.of(config, null, "shards", "open", "--shards", FIRST + "-" + LAST, "--on", "mysql002");
        assertThat(open.code()).as(open.out() + open.err()).isZero();
        assertThat(open.out()).contains("new users go to shards " + FIRST + "-" + LAST);
        await().atMost(Duration.ofSeconds(10)).until(() -> ingest.shards().current().shardCount() == LAST + 1);

        Set<Integer> shards = new HashSet<>();
        List<Long> users = createUsers(40);
        for (long id : users) shards.add(ShardedId.decode(id).shard());
        assertThat(shards).allMatch(s -> s >= FIRST && s <= LAST).hasSizeGreaterThan(1);
        // Each new user's directory row is in its shard's database on mysql002, the host the map names.
        for (long id : users) {
            try (Connection c = admin("mysql002"); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                    "SELECT 1 FROM " + MysqlShardMap.databaseName(ShardedId.decode(id).shard()) + ".object_directory WHERE id = " + id)) {
                assertThat(rs.next()).as("directory row of %d on mysql002", id).isTrue();
            }
        }
        assertThat(CliRun.of(config, null, "shards", "status").out()).containsPattern("4096-4199\\s+mysql001")
                .containsPattern("4200-4203\\s+mysql002").contains("new users go to shards 4200-4203");

        CliRun back = CliRun.of(config, null, "shards", "new-users", "--configured");
        assertThat(back.code()).as(back.out() + back.err()).isZero();
        await().atMost(Duration.ofSeconds(10)).until(() -> ingest.shards().current().newUsers().isEmpty());
        assertThat(shardsOfNewUsers(20)).allMatch(s -> s < 4096);

        CliRun notAtTheEnd = CliRun.of(config, null, "shards", "open", "--shards", "5000-5003", "--on", "mysql002");
        assertThat(notAtTheEnd.code()).isNotZero();
        assertThat(notAtTheEnd.err()).contains("new shards start where the map ends: at 4204");
    }

    private static Set<Integer> shardsOfNewUsers(int n) {
        Set<Integer> out = new HashSet<>();
        for (long id : createUsers(n)) out.add(ShardedId.decode(id).shard());
        return out;
    }

    private static List<Long> createUsers(int n) {
        IngestService service = ingest.service();
        return java.util.stream.IntStream.range(0, n).mapToObj(i -> {
            var outcome = service.submit(new IngestCommand.CreateUser(stack.uniqueName("os").replace("-", "_"), null));
            assertThat(outcome.accepted()).as(String.valueOf(outcome.rejection())).isTrue();
            return outcome.createdId();
        }).toList();
    }

    private static Connection admin(String host) throws SQLException {
        return PrivateShardMap.admin(stack, host);
    }

    private static void dropOpened() throws SQLException {
        try (Connection c = admin("mysql002"); Statement st = c.createStatement()) {
            for (int shard = FIRST; shard <= LAST; shard++) st.execute("DROP DATABASE IF EXISTS " + MysqlShardMap.databaseName(shard));
        }
    }
}
