package dev.pinfeed.ingestapi.mysql;

import static dev.pinfeed.mysqlshards.query.Condition.eq;
import static dev.pinfeed.mysqlshards.query.Condition.in;

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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code dbNNNNN.usernames} on the shard {@link UsernameShards} picks, through the sharded query API; the same
 * index over {@code interest_names} ({@link #interestNames}) keeps interest names unique.
 * The primary key decides races: a claim inserts the name unless it exists (keeping an existing row)
 * and then reads who holds it, in one transaction; of two concurrent claims InnoDB makes the second
 * wait for the first's row lock, so exactly one reads itself back.
 */
public final class MysqlUsernameIndex implements UsernameIndex {

    private final ShardDataSources sources;
    private final ShardedDb db;
    private final String table;
    private final String nameColumn;
    private final String idColumn;
    private final boolean closesSources;

    public MysqlUsernameIndex(ShardDataSources sources) {
        this(sources, CanonicalLayout.USERNAMES, CanonicalLayout.USERNAME, CanonicalLayout.USER_ID, true);
    }

    /**
     * Interest names → interest ids ({@code interest_names}, on the shard {@link UsernameShards} picks for the name), on pools the caller
     * keeps and closes.
     */
    public static MysqlUsernameIndex interestNames(ShardDataSources sources) {
        return new MysqlUsernameIndex(sources, CanonicalLayout.INTEREST_NAMES, CanonicalLayout.NAME, CanonicalLayout.INTEREST_ID, false);
    }

    private MysqlUsernameIndex(ShardDataSources sources, String table, String nameColumn, String idColumn, boolean closesSources) {
        this.table = table;
        this.nameColumn = nameColumn;
        this.idColumn = idColumn;
        this.closesSources = closesSources;
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
            w.execute(shard, Upsert.into(table, nameColumn, idColumn).row(username, userId).keepExisting());
            return holder(w.select(shard, byName(username)));
        });
        return holder.isPresent() && holder.getAsLong() == userId;
    }

    /**
     * One transaction per host for all the names its index shards hold: one upsert per shard (the names sorted, so two
     * batches lock common names in the same order), then a read per shard of who holds them; each claim's user id is its own (a
     * new user's), so a name is held when its user holds one of the names read. A deadlock all the same surfaces as
     * the host being unavailable (InnoDB rolled the transaction back: nothing of it is held).
     */
    @Override
    public Set<String> claimAll(Map<String, Long> claims) {
        Map<String, TreeMap<Integer, TreeMap<String, Long>>> byHost = new TreeMap<>();
        claims.forEach((name, userId) -> {
            int shard = UsernameShards.shardOf(name);
            byHost.computeIfAbsent(db.hostOf(shard), h -> new TreeMap<>()).computeIfAbsent(shard, s -> new TreeMap<>()).put(name, userId);
        });
        Set<String> claimed = new HashSet<>();
        byHost.forEach((host, byShard) -> claimed.addAll(db.inTransaction(host, w -> {
            for (Map.Entry<Integer, TreeMap<String, Long>> shard : byShard.entrySet()) {
                Upsert upsert = Upsert.into(table, nameColumn, idColumn);
                shard.getValue().forEach(upsert::row);
                w.add(shard.getKey(), upsert.keepExisting());
            }
            Set<String> held = new HashSet<>();
            for (Map.Entry<Integer, TreeMap<String, Long>> shard : byShard.entrySet()) {
                // By holder, not by the name's spelling: the column's collation may match a name spelled otherwise.
                Set<Long> holders = new HashSet<>();
                for (Row row : w.select(shard.getKey(), Select.from(table).columns(idColumn)
                        .where(in(nameColumn, shard.getValue().keySet())))) {
                    holders.add(row.getLong(idColumn));
                }
                shard.getValue().forEach((name, userId) -> {
                    if (holders.contains(userId)) held.add(name);
                });
            }
            return held;
        })));
        return claimed;
    }

    @Override
    public void release(String username, long userId) {
        db.write(UsernameShards.shardOf(username), Delete.from(table).where(eq(nameColumn, username), eq(idColumn, userId)));
    }

    @Override
    public OptionalLong find(String username) {
        return holder(db.select(byName(username), ShardingKey.one(UsernameShards.shardOf(username))));
    }

    private Select byName(String username) {
        return Select.from(table).columns(idColumn).where(eq(nameColumn, username));
    }

    private OptionalLong holder(List<Row> rows) {
        return rows.isEmpty() ? OptionalLong.empty() : OptionalLong.of(rows.get(0).getLong(idColumn));
    }

    @Override
    public void close() {
        db.close();
        if (closesSources) sources.close();
    }
}
