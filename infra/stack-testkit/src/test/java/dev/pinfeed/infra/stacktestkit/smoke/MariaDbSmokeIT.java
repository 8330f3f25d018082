package dev.pinfeed.infra.stacktestkit.smoke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@ExtendWith(StackExtension.class)
class MariaDbSmokeIT {

    static java.util.List<String> hosts() {
        return PinfeedConfig.load().mysqlHosts().stream().map(PinfeedConfig.ReplicatedHost::name).toList();
    }

    private static Connection open(TestStack stack, dev.pinfeed.config.HostPort hp) throws SQLException {
        return DriverManager.getConnection(stack.config().mysqlJdbcUrl(hp), stack.config().mysqlUser(), stack.config().mysqlPassword());
    }

    @ParameterizedTest
    @MethodSource("hosts")
    void onlyTheGeneratedPasswordsLogIn(String hostName, TestStack stack) throws Exception {
        PinfeedConfig config = stack.config();
        PinfeedConfig.ReplicatedHost host = config.mysqlHosts().stream().filter(h -> h.name().equals(hostName)).findFirst().orElseThrow();
        assertThat(config.mysqlPassword()).as("the local stack's generated password").isNotEmpty().isNotEqualTo("pinfeed");
        for (dev.pinfeed.config.HostPort server : new dev.pinfeed.config.HostPort[] {host.master(), host.replica()}) {
            for (String[] refused : new String[][] {{config.mysqlUser(), ""}, {config.mysqlUser(), "pinfeed"},
                    {config.require("mysql.admin.user"), "pinfeed_admin"}, {"repl", "repl"}}) {
                assertThatThrownBy(() -> DriverManager.getConnection(config.mysqlJdbcUrl(server), refused[0], refused[1]).close())
                        .as(refused[0] + " on " + server).isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1045));
            }
            try (Connection c = open(stack, server)) {
                assertThat(c.isValid(5)).isTrue();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("hosts")
    void writeOnMasterIsSeenOnReplicaAndTheReplicaRefusesWrites(String hostName, TestStack stack) throws Exception {
        PinfeedConfig.ReplicatedHost host = stack.config().mysqlHosts().stream().filter(h -> h.name().equals(hostName)).findFirst().orElseThrow();
        String db = stack.uniqueName("smoke");
        try (Connection master = open(stack, host.master()); Statement st = master.createStatement()) {
            st.execute("CREATE DATABASE " + db);
            st.execute("CREATE TABLE " + db + ".t (id BIGINT PRIMARY KEY, v VARCHAR(20))");
            st.execute("INSERT INTO " + db + ".t VALUES (1, 'from-master')");
        }
        try (Connection replica = open(stack, host.replica()); Statement st = replica.createStatement()) {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
                try (ResultSet rs = st.executeQuery("SELECT v FROM " + db + ".t WHERE id = 1")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("from-master");
                }
            });
            assertThatThrownBy(() -> st.execute("INSERT INTO " + db + ".t VALUES (2, 'from-replica')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("read-only");
        } finally {
            try (Connection master = open(stack, host.master()); Statement st = master.createStatement()) {
                st.execute("DROP DATABASE " + db);
            }
        }
    }
}
