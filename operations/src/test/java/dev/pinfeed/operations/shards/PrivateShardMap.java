package dev.pinfeed.operations.shards;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * A shard map of a test's own on the shared shard hosts: its own znodes (map and moves), the shared
 * map's ranges plus {@code extraRanges} that no other test touches. Moves and openings then change only
 * the test's routing and databases.
 */
public final class PrivateShardMap {

    private PrivateShardMap() {}

    public static PinfeedConfig config(TestStack stack, String name, String extraRanges) {
        String base = "/it/" + stack.uniqueName(name);
        return stack.config().with("mysql.shards.znode", base + "/mysql-shards").with("mysql.shard-moves.znode", base + "/moves")
                .with("mysql.shards", stack.config().require("mysql.shards") + "," + extraRanges);
    }

    /** Shard databases {@code first..last} on {@code host}, with the tables of infra/definitions, as provisioning makes them. */
    public static void createShardDatabases(TestStack stack, String host, int first, int last) throws Exception {
        java.util.List<String> schema = dev.pinfeed.operations.provision.Provisioner.shardSchema(
                java.nio.file.Path.of(System.getProperty("user.dir")).resolve("../infra/definitions").normalize());
        try (Connection c = admin(stack, host); java.sql.Statement st = c.createStatement()) {
            dev.pinfeed.operations.provision.Provisioner.createShardDatabases(st, host,
                    java.util.stream.IntStream.rangeClosed(first, last).boxed().toList(), schema, line -> {});
        }
    }

    /** The administrative account on {@code host}'s master. */
    public static Connection admin(TestStack stack, String host) throws SQLException {
        PinfeedConfig c = stack.config();
        return DriverManager.getConnection(c.mysqlJdbcUrl(c.mysqlHost(host).orElseThrow().master()),
                c.require("mysql.admin.user"), c.get("mysql.admin.password", ""));
    }
}
