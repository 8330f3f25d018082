package dev.pinfeed.operations.verify.index;

import static dev.pinfeed.mysqlshards.query.Condition.ge;
import static dev.pinfeed.mysqlshards.query.Condition.in;
import static dev.pinfeed.mysqlshards.query.Condition.lt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.UsernameShards;
import dev.pinfeed.clikit.Progress;
import dev.pinfeed.idallocator.InvalidIdException;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.mysqlshards.query.Row;
import dev.pinfeed.mysqlshards.query.Select;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.operations.verify.index.IndexCheck.Claim;
import dev.pinfeed.operations.verify.index.IndexCheck.Scope;
import dev.pinfeed.operations.verify.index.IndexCheck.UserRow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * Reads the two sides of the username index through the sharded query API: every user row (all
 * shards of the map), then every claim (index shards 0-4095), in batches of up to
 * {@value #SHARDS_PER_HOST} shards per host, each batch one statement per host ({@link ShardedDb#selectEach}),
 * hosts in parallel. Users are read first: a row exists only once its claim was made, so a row the
 * scan saw has its claim in the later claims read unless the claim is really lost.
 */
final class IndexScan {

    /** Shards per host and batch: one UNION ALL statement per host, and the unit of progress and of stopping. */
    static final int SHARDS_PER_HOST = 128;

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What one scan read; {@code claimsReadAt}: when the last claim was read; {@code strayUserRows}: rows
     * whose shard and local id make no user id (no user can name them), left out.
     */
    record Snapshot(List<Claim> claims, List<UserRow> users, int strayUserRows, Instant claimsReadAt) {}

    private final ShardedDb db;
    private final Clock clock;

    IndexScan(ShardedDb db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    int indexShards() {
        return UsernameShards.INDEX_SHARDS;
    }

    int userShards() {
        return db.shardCount();
    }

    /** The scan; null when {@code stop} asked to stop (checked between batches). */
    Snapshot read(Scope scope, Progress progress, BooleanSupplier stop) {
        List<UserRow> users = new ArrayList<>();
        int[] stray = {0};
        Select userRows = Select.from(CanonicalLayout.USERS).columns(CanonicalLayout.LOCAL_ID, CanonicalLayout.DATA);
        if (!scan(userShards(), userRows, progress, stop, row -> {
            UserRow u = userRow(row);
            if (u == null) stray[0]++;
            else users.add(u);
        })) {
            return null;
        }
        List<Claim> claims = new ArrayList<>();
        Select claimRows = Select.from(CanonicalLayout.USERNAMES).columns(CanonicalLayout.USERNAME, CanonicalLayout.USER_ID);
        if (!scope.isAll()) claimRows.where(ge(CanonicalLayout.USERNAME, scope.prefix()), lt(CanonicalLayout.USERNAME, scope.upperBound()));
        if (!scan(indexShards(), claimRows, progress, stop,
                row -> claims.add(new Claim(row.shard(), row.getString(CanonicalLayout.USERNAME), row.getLong(CanonicalLayout.USER_ID))))) {
            return null;
        }
        return new Snapshot(claims, users, stray[0], clock.instant());
    }

    /**
     * The usernames of the rows of {@code userIds} now (a user without a row is absent; one without a
     * username maps to null). An id that names no user on this map (a claim may hold any number) has no row.
     */
    Map<Long, String> usernamesOf(Collection<Long> userIds) {
        Map<Integer, List<Long>> localsByShard = new TreeMap<>();
        for (long id : userIds) {
            ShardedId s;
            try {
                s = ShardedId.decode(id);
            } catch (InvalidIdException notAnId) {
                continue;
            }
            if (s.type() != ObjectType.USER || s.shard() >= db.shardCount()) continue;
            localsByShard.computeIfAbsent(s.shard(), k -> new ArrayList<>()).add(s.localId());
        }
        Map<Integer, Select> perShard = new LinkedHashMap<>();
        localsByShard.forEach((shard, locals) -> perShard.put(shard, Select.from(CanonicalLayout.USERS)
                .columns(CanonicalLayout.LOCAL_ID, CanonicalLayout.DATA).where(in(CanonicalLayout.LOCAL_ID, locals))));
        Map<Long, String> out = new HashMap<>();
        db.selectEach(perShard).values().forEach(rows -> rows.forEach(row -> {
            UserRow u = userRow(row);
            if (u != null) out.put(u.userId(), u.username());
        }));
        return out;
    }

    /**
     * Runs {@code query} on shards 0..{@code shards}-1 batch by batch (each host's next
     * {@value #SHARDS_PER_HOST} shards), handing every row to {@code each}; false when stopped.
     */
    private boolean scan(int shards, Select query, Progress progress, BooleanSupplier stop, Consumer<Row> each) {
        for (List<Integer> batch : batches(IntStream.range(0, shards).boxed().toList(), db::hostOf)) {
            if (stop.getAsBoolean()) return false;
            Map<Integer, Select> perShard = new LinkedHashMap<>();
            for (int shard : batch) perShard.put(shard, query);
            db.selectEach(perShard).values().forEach(rows -> rows.forEach(each));
            progress.advance(batch.size());
        }
        return true;
    }

    /** The shards in batches holding up to {@value #SHARDS_PER_HOST} shards of each host ({@code hostOf}). */
    static List<List<Integer>> batches(List<Integer> shards, IntFunction<String> hostOf) {
        Map<String, List<Integer>> byHost = new LinkedHashMap<>();
        for (int s : shards) byHost.computeIfAbsent(hostOf.apply(s), h -> new ArrayList<>()).add(s);
        int longest = byHost.values().stream().mapToInt(List::size).max().orElse(0);
        List<List<Integer>> out = new ArrayList<>();
        for (int from = 0; from < longest; from += SHARDS_PER_HOST) {
            List<Integer> batch = new ArrayList<>();
            for (List<Integer> hostShards : byHost.values()) {
                if (from < hostShards.size()) batch.addAll(hostShards.subList(from, Math.min(hostShards.size(), from + SHARDS_PER_HOST)));
            }
            out.add(batch);
        }
        return out;
    }

    /** The row as a user, or null when its shard and local id make no user id. */
    private static UserRow userRow(Row row) {
        long id;
        try {
            id = ShardedId.compose(row.shard(), ObjectType.USER, row.getLong(CanonicalLayout.LOCAL_ID));
        } catch (InvalidIdException notAUser) {
            return null;
        }
        JsonNode data;
        try {
            data = JSON.readTree(row.getString(CanonicalLayout.DATA));
        } catch (IOException e) {
            throw new UncheckedIOException("user " + id + ": its data is not JSON", e);
        }
        JsonNode username = data.path(CanonicalLayout.Json.USERNAME);
        JsonNode createdAt = data.path(CanonicalLayout.Json.CREATED_AT);
        return new UserRow(id, username.isTextual() ? username.asText() : null,
                createdAt.canConvertToLong() ? createdAt.asLong() : Long.MAX_VALUE);
    }
}
