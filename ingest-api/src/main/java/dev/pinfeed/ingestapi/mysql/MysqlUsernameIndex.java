package dev.pinfeed.ingestapi.mysql;

import dev.pinfeed.ingestapi.core.UsernameIndex;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.mysqlshards.ShardDataSources;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.OptionalLong;

/**
 * {@code dbNNNNN.usernames} on the shard {@link UsernameShards} picks. The primary key decides
 * races: of two concurrent INSERTs for one name, InnoDB lets exactly one commit.
 */
public final class MysqlUsernameIndex implements UsernameIndex {

    private static final int ER_DUP_ENTRY = 1062;
    private final ShardDataSources sources;

    public MysqlUsernameIndex(ShardDataSources sources) {
        if (sources.shardMap().shardCount() < UsernameShards.INDEX_SHARDS) {
            throw new IllegalStateException("the username index needs shards 0-" + (UsernameShards.INDEX_SHARDS - 1)
                    + " in the shard map, which has " + sources.shardMap().shardCount());
        }
        this.sources = sources;
    }

    private int shardOf(String username) {
        return UsernameShards.shardOf(username);
    }

    @Override
    public boolean claim(String username, long userId) {
        int shard = shardOf(username);
        String db = MysqlShardMap.databaseName(shard);
        String host = sources.hostOf(shard);
        try (Connection c = sources.connection(host)) {
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + db + ".usernames (username, user_id) VALUES (?, ?)")) {
                insert.setString(1, username);
                insert.setLong(2, userId);
                insert.executeUpdate();
                return true;
            } catch (SQLException e) {
                if (e.getErrorCode() != ER_DUP_ENTRY) throw e;
                OptionalLong holder = find(c, db, username);
                return holder.isPresent() && holder.getAsLong() == userId;
            }
        } catch (SQLException e) {
            throw ShardDataSources.failure(host, "claiming username in " + db, e);
        }
    }

    @Override
    public void release(String username, long userId) {
        int shard = shardOf(username);
        String db = MysqlShardMap.databaseName(shard);
        String host = sources.hostOf(shard);
        try (Connection c = sources.connection(host);
             PreparedStatement delete = c.prepareStatement("DELETE FROM " + db + ".usernames WHERE username = ? AND user_id = ?")) {
            delete.setString(1, username);
            delete.setLong(2, userId);
            delete.executeUpdate();
        } catch (SQLException e) {
            throw ShardDataSources.failure(host, "releasing username in " + db, e);
        }
    }

    @Override
    public OptionalLong find(String username) {
        int shard = shardOf(username);
        String db = MysqlShardMap.databaseName(shard);
        String host = sources.hostOf(shard);
        try (Connection c = sources.connection(host)) {
            return find(c, db, username);
        } catch (SQLException e) {
            throw ShardDataSources.failure(host, "reading username from " + db, e);
        }
    }

    private static OptionalLong find(Connection c, String db, String username) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT user_id FROM " + db + ".usernames WHERE username = ?")) {
            select.setString(1, username);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        }
    }

    @Override
    public void close() {
        sources.close();
    }
}
