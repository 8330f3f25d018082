package dev.pinfeed.operations.feed;

import static dev.pinfeed.mysqlshards.query.Condition.gt;
import static dev.pinfeed.mysqlshards.query.Condition.le;

import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.mysqlshards.query.Count;
import dev.pinfeed.mysqlshards.query.Order;
import dev.pinfeed.mysqlshards.query.Row;
import dev.pinfeed.mysqlshards.query.Select;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.mysqlshards.query.ShardingKey;
import java.util.ArrayList;
import java.util.List;

/**
 * Every user of the canonical store in ascending id order: a user's id starts with his shard, so shard by
 * shard, each shard's users by local id. {@code --all --after ID} resumes exactly after a user.
 */
final class CanonicalUserIds {

    private final ShardedDb db;

    CanonicalUserIds(ShardedDb db) {
        this.db = db;
    }

    /** How many users the shards hold. */
    long count() {
        return db.count(Count.from(CanonicalLayout.USERS).where(le(CanonicalLayout.LOCAL_ID, ShardedId.MAX_LOCAL_ID)), ShardingKey.all());
    }

    /** Up to {@code limit} user ids after {@code afterId} (0: from the first), ascending; empty when none follows. */
    List<Long> after(long afterId, int limit) {
        int shard = afterId <= 0 ? 0 : ShardedId.decode(afterId).shard();
        long local = afterId <= 0 ? 0 : ShardedId.decode(afterId).localId();
        List<Long> out = new ArrayList<>();
        for (; shard < db.shardCount() && out.size() < limit; shard++, local = 0) {
            // Rows whose local id no sharded id can hold (written by hand) are no user anyone can name: skipped.
            Select page = Select.from(CanonicalLayout.USERS).columns(CanonicalLayout.LOCAL_ID)
                    .where(gt(CanonicalLayout.LOCAL_ID, local), le(CanonicalLayout.LOCAL_ID, ShardedId.MAX_LOCAL_ID))
                    .orderBy(Order.asc(CanonicalLayout.LOCAL_ID)).limit(limit - out.size());
            for (Row r : db.select(page, ShardingKey.one(shard))) out.add(ShardedId.compose(shard, ObjectType.USER, r.getLong(CanonicalLayout.LOCAL_ID)));
        }
        return out;
    }
}
