package dev.pinfeed.idallocator.mysql;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Direct SQL on a shard's master for test setup, and the config of a stack as child-JVM flags. */
final class MysqlFixtures {

    private final PinfeedConfig config;
    private final MysqlShardMap shardMap;

    MysqlFixtures(PinfeedConfig config) {
        this.config = config;
        this.shardMap = MysqlShardMap.from(config);
    }

    void deleteCounter(int shard, int typeId) {
        update(shard, "DELETE FROM %s.id_sequences WHERE type_id = ?", typeId);
    }

    void setCounter(int shard, int typeId, long nextLocal) {
        update(shard, "INSERT INTO %s.id_sequences (type_id, next_local) VALUES (?, ?) ON DUPLICATE KEY UPDATE next_local = VALUES(next_local)",
                typeId, nextLocal);
    }

    /** -D flags that make {@link PinfeedConfig#load()} in a child JVM see the same MySQL hosts. */
    List<String> systemPropertyFlags() {
        List<String> flags = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (PinfeedConfig.ReplicatedHost host : config.mysqlHosts()) {
            names.add(host.name());
            flags.add("-Dmysql." + host.name() + ".master=" + host.master());
        }
        flags.add("-Dmysql.hosts=" + String.join(",", names));
        flags.add("-Dmysql.user=" + config.mysqlUser());
        flags.add("-Dmysql.password=" + config.mysqlPassword());
        flags.add("-Dmysql.shards=" + shardMap.format());
        return flags;
    }

    private void update(int shard, String sqlTemplate, long... args) {
        HostPort master = shardMap.master(shardMap.hostOf(shard));
        String url = config.mysqlJdbcUrl(master);
        try (Connection c = DriverManager.getConnection(url, config.mysqlUser(), config.mysqlPassword());
             PreparedStatement ps = c.prepareStatement(String.format(sqlTemplate, MysqlShardMap.databaseName(shard)))) {
            for (int i = 0; i < args.length; i++) ps.setLong(i + 1, args[i]);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("test fixture SQL on shard " + shard + " failed: " + e.getMessage(), e);
        }
    }
}
