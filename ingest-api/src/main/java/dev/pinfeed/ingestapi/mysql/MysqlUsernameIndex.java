package dev.pinfeed.ingestapi.mysql;

import static dev.pinfeed.mysqlshards.query.Condition.eq;

import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.UsernameShards;
import dev.pinfeed.ingestapi.core.UsernameIndex;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.Delete;
import dev.pinfeed.mysqlshards.query.Row;
import dev.pinfeed.mysqlshards.query.Select;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.mysqlshards.query.ShardingKey;
import dev.pinfeed.mysqlshards.query.Upsert;
import java.util.List;
import java.util.OptionalLong;

/**
 * {@code dbNNNNN.usernames} on the shard {@link UsernameShards} picks, through the sharded query API.
 * The primary key decides races: a claim inserts the name unless it exists (keeping an existing row)
 * and then reads who holds it, in one transaction; of two concurrent claims InnoDB makes the second
 * wait for the first's row lock, so exactly one reads itself back.
 */
public final class MysqlUsernameIndex implements UsernameIndex {

    private final ShardDataSources sources;
    private final ShardedDb db;

    public MysqlUsernameIndex(ShardDataSources sources) {
        if (sources.shardMap().shardCount() < UsernameShards.INDEX_SHARDS) {
            throw new IllegalStateException("the username index needs shards 0-" + (UsernameShards.INDEX_SHARDS - 1)
                    + " in the shard map, which has " + sources.shardMap().shardCount());
        }
        this.sources = sources;
        this.db = new ShardedDb(sources);
    }

    @Override
    public boolean claim(String username, long userId) {
        int shard = UsernameShards.shardOf(username);
        OptionalLong holder = db.inTransaction(db.hostOf(shard), w -> {
            w.execute(shard, Upsert.into(CanonicalLayout.USERNAMES, CanonicalLayout.USERNAME, CanonicalLayout.USER_ID)
                    .row(username, userId).keepExisting());
            return holder(w.select(shard, byName(username)));
        });
        return holder.isPresent() && holder.getAsLong() == userId;
    }

    @Override
    public void release(String username, long userId) {
        db.write(UsernameShards.shardOf(username), Delete.from(CanonicalLayout.USERNAMES)
                .where(eq(CanonicalLayout.USERNAME, username), eq(CanonicalLayout.USER_ID, userId)));
    }

    @Override
    public OptionalLong find(String username) {
        return holder(db.select(byName(username), ShardingKey.one(UsernameShards.shardOf(username))));
    }

    private static Select byName(String username) {
        return Select.from(CanonicalLayout.USERNAMES).columns(CanonicalLayout.USER_ID).where(eq(CanonicalLayout.USERNAME, username));
    }

    private static OptionalLong holder(List<Row> rows) {
        return rows.isEmpty() ? OptionalLong.empty() : OptionalLong.of(rows.get(0).getLong(CanonicalLayout.USER_ID));
    }

    @Override
    public void close() {
        db.close();
        sources.close();
    }
}
