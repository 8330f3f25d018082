package dev.pinfeed.canonicalstore.mysql;

import static dev.pinfeed.mysqlshards.query.Condition.eq;

import dev.pinfeed.canonicalstore.CanonicalCacheKeys;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.CanonicalLayout.Json;
import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.canonicalstore.UsernameShards;
import dev.pinfeed.canonicalstore.reads.CanonicalSeed;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.mysqlshards.query.Row;
import dev.pinfeed.mysqlshards.query.Select;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.mysqlshards.query.ShardingKey;
import dev.pinfeed.mysqlshards.query.Update;
import dev.pinfeed.mysqlshards.query.Upsert;
import java.util.List;

/**
 * Seeds the real shards with the query API's Upsert/Update, rows per {@link CanonicalLayout} (the
 * materializer, built in parallel, is the production writer). After each change it runs
 * {@code invalidate} with the cache keys the change makes stale, as the writer does (for a cache: the
 * write side's protocol, INCR the object's version then DEL its keys).
 */
public final class MysqlCanonicalSeed implements CanonicalSeed {

    /** The keys one object's change makes stale (the object's version is bumped for them). */
    @FunctionalInterface
    public interface Invalidate {
        void keys(long objectId, List<String> keys);
    }

    private final ShardedDb db;
    private final Invalidate invalidate;

    public MysqlCanonicalSeed(ShardedDb db, Invalidate invalidate) {
        this.db = db;
        this.invalidate = invalidate;
    }

    private static int shard(long id) {
        return ShardedId.decode(id).shard();
    }

    private static long local(long id) {
        return ShardedId.decode(id).localId();
    }

    @Override
    public void user(long id, String username, String displayName, long createdAt) {
        db.write(shard(id), object(CanonicalLayout.USERS, id, Data.user(id, username, displayName, createdAt)));
        db.write(UsernameShards.shardOf(username), Upsert.into(CanonicalLayout.USERNAMES, CanonicalLayout.USERNAME, CanonicalLayout.USER_ID)
                .row(username, id).keepExisting());
        invalidate.keys(id, List.of(CanonicalCacheKeys.user(id)));
    }

    @Override
    public void board(long id, long ownerId, String name, String description, long createdAt) {
        db.write(shard(id), object(CanonicalLayout.BOARDS, id, Data.board(id, ownerId, name, description, createdAt)));
        db.write(shard(ownerId), mapping(Mapping.USER_HAS_BOARDS, ownerId, id, createdAt));
        invalidate.keys(id, List.of(CanonicalCacheKeys.board(id)));
    }

    @Override
    public void pin(long id, long boardId, long authorId, String details, String link, String imageUrl, long createdAt) {
        db.write(shard(id), object(CanonicalLayout.PINS, id, Data.pin(id, boardId, authorId, details, link, imageUrl, createdAt)));
        db.write(shard(boardId), mapping(Mapping.BOARD_HAS_PINS, boardId, id, createdAt));
        db.write(shard(authorId), mapping(Mapping.USER_HAS_PINS, authorId, id, createdAt));
        invalidate.keys(id, pinKeys(id));
        invalidate.keys(boardId, boardLists(boardId));
    }

    @Override
    public void interest(long id, String name, long createdAt) {
        db.write(shard(id), object(CanonicalLayout.INTERESTS, id, Data.interest(id, name, createdAt)));
        invalidate.keys(id, List.of(CanonicalCacheKeys.interest(id)));
    }

    /** The interests each pin was tagged with (PinDeleted names them). */
    private final java.util.Map<Long, List<Long>> interestsOf = new java.util.concurrent.ConcurrentHashMap<>();

    @Override
    public void tagPin(long interestId, long pinId, long createdAt) {
        db.write(shard(interestId), mapping(Mapping.INTEREST_HAS_PINS, interestId, pinId, createdAt));
        interestsOf.computeIfAbsent(pinId, p -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(interestId);
        List<Row> rows = db.select(Select.from(CanonicalLayout.PINS).columns(CanonicalLayout.DATA).where(eq(CanonicalLayout.LOCAL_ID, local(pinId))),
                ShardingKey.one(shard(pinId)));
        if (rows.isEmpty()) return;
        try {
            var o = (com.fasterxml.jackson.databind.node.ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper().readTree(rows.get(0).getString(CanonicalLayout.DATA));
            (o.has(Json.INTERESTS) ? (com.fasterxml.jackson.databind.node.ArrayNode) o.get(Json.INTERESTS) : o.putArray(Json.INTERESTS)).add(interestId);
            db.write(shard(pinId), Update.table(CanonicalLayout.PINS).set(CanonicalLayout.DATA, o.toString())
                    .where(eq(CanonicalLayout.LOCAL_ID, local(pinId))));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        invalidate.keys(pinId, pinKeys(pinId));
    }

    @Override
    public void deletePin(long pinId) {
        Row row = db.select(Select.from(CanonicalLayout.PINS).columns(CanonicalLayout.DATA).where(eq(CanonicalLayout.LOCAL_ID, local(pinId))),
                ShardingKey.one(shard(pinId))).get(0);
        String data = row.getString(CanonicalLayout.DATA);
        long boardId = field(data, Json.BOARD_ID);
        long authorId = field(data, Json.AUTHOR_ID);
        db.write(shard(pinId), Update.table(CanonicalLayout.PINS).jsonSet(CanonicalLayout.DATA, "$." + Json.ACTIVE, false)
                .where(eq(CanonicalLayout.LOCAL_ID, local(pinId))));
        db.write(shard(boardId), Update.table(Mapping.BOARD_HAS_PINS.table()).set(CanonicalLayout.ACTIVE, 0)
                .where(eq(CanonicalLayout.BOARD_ID, boardId), eq(CanonicalLayout.PIN_ID, pinId)));
        db.write(shard(authorId), Update.table(Mapping.USER_HAS_PINS.table()).set(CanonicalLayout.ACTIVE, 0)
                .where(eq(CanonicalLayout.USER_ID, authorId), eq(CanonicalLayout.PIN_ID, pinId)));
        for (long interest : interestsOf.getOrDefault(pinId, List.of())) {
            db.write(shard(interest), Update.table(Mapping.INTEREST_HAS_PINS.table()).set(CanonicalLayout.ACTIVE, 0)
                    .where(eq(CanonicalLayout.INTEREST_ID, interest), eq(CanonicalLayout.PIN_ID, pinId)));
        }
        invalidate.keys(pinId, pinKeys(pinId));
        invalidate.keys(boardId, boardLists(boardId));
    }

    @Override
    public void comment(long id, long pinId, long authorId, String text, long createdAt) {
        db.write(shard(id), object(CanonicalLayout.COMMENTS, id, Data.comment(id, pinId, authorId, text, createdAt)));
        db.write(shard(pinId), Upsert.into(Mapping.PIN_HAS_COMMENTS.table(), CanonicalLayout.PIN_ID, CanonicalLayout.COMMENT_ID,
                CanonicalLayout.SEQUENCE).row(pinId, id, createdAt).keepExisting());
        invalidate.keys(id, List.of(CanonicalCacheKeys.comment(id)));
        invalidate.keys(pinId, List.of(CanonicalCacheKeys.pinComments(pinId)));
    }

    @Override
    public void deleteComment(long commentId) {
        Row row = db.select(Select.from(CanonicalLayout.COMMENTS).columns(CanonicalLayout.DATA)
                .where(eq(CanonicalLayout.LOCAL_ID, local(commentId))), ShardingKey.one(shard(commentId))).get(0);
        long pinId = field(row.getString(CanonicalLayout.DATA), Json.PIN_ID);
        db.write(shard(commentId), Update.table(CanonicalLayout.COMMENTS).jsonSet(CanonicalLayout.DATA, "$." + Json.ACTIVE, false)
                .where(eq(CanonicalLayout.LOCAL_ID, local(commentId))));
        db.write(shard(pinId), Update.table(Mapping.PIN_HAS_COMMENTS.table()).set(CanonicalLayout.ACTIVE, 0)
                .where(eq(CanonicalLayout.PIN_ID, pinId), eq(CanonicalLayout.COMMENT_ID, commentId)));
        invalidate.keys(commentId, List.of(CanonicalCacheKeys.comment(commentId)));
        invalidate.keys(pinId, List.of(CanonicalCacheKeys.pinComments(pinId)));
    }

    @Override
    public void like(long userId, long pinId, long at, boolean liked) {
        byte[] version = CanonicalLayout.version(at, at);
        db.write(shard(userId), like(Mapping.USER_LIKES_PINS, userId, pinId, at, liked, version));
        db.write(shard(pinId), like(Mapping.PIN_LIKED_BY_USERS, pinId, userId, at, liked, version));
        invalidate.keys(pinId, List.of(CanonicalCacheKeys.pinLikes(pinId)));
    }

    @Override
    public void reorder(long boardId, List<Long> pinIds) {
        int shard = shard(boardId);
        db.inTransaction(db.hostOf(shard), w -> {
            w.execute(shard, Update.table(Mapping.BOARD_HAS_PINS.table()).setNull(CanonicalLayout.POSITION).where(eq(CanonicalLayout.BOARD_ID, boardId)));
            for (int i = 0; i < pinIds.size(); i++) {
                w.add(shard, Update.table(Mapping.BOARD_HAS_PINS.table()).set(CanonicalLayout.POSITION, i)
                        .where(eq(CanonicalLayout.BOARD_ID, boardId), eq(CanonicalLayout.PIN_ID, pinIds.get(i))));
            }
            return null;
        });
        invalidate.keys(boardId, List.of(CanonicalCacheKeys.boardPins(boardId, "custom")));
    }

    private static List<String> pinKeys(long pinId) {
        return List.of(CanonicalCacheKeys.pin(pinId), CanonicalCacheKeys.pinLikes(pinId), CanonicalCacheKeys.pinComments(pinId));
    }

    private static List<String> boardLists(long boardId) {
        return List.of(CanonicalCacheKeys.boardPins(boardId, "newest"), CanonicalCacheKeys.boardPins(boardId, "custom"));
    }

    private static Upsert object(String table, long id, String json) {
        return Upsert.into(table, CanonicalLayout.LOCAL_ID, CanonicalLayout.DATA).row(local(id), json).overwrite(CanonicalLayout.DATA);
    }

    private static Upsert mapping(Mapping m, long from, long to, long sequence) {
        return Upsert.into(m.table(), m.from(), m.to(), CanonicalLayout.SEQUENCE).row(from, to, sequence).keepExisting();
    }

    private static Upsert like(Mapping m, long from, long to, long at, boolean liked, byte[] version) {
        return Upsert.into(m.table(), m.from(), m.to(), CanonicalLayout.SEQUENCE, CanonicalLayout.LIKED, CanonicalLayout.VERSION)
                .row(from, to, at, liked ? 1 : 0, version).newerWins(CanonicalLayout.VERSION, CanonicalLayout.LIKED, CanonicalLayout.SEQUENCE);
    }

    private static long field(String json, String name) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).path(name).asLong();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
