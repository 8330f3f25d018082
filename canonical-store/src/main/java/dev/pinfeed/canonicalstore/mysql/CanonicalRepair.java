package dev.pinfeed.canonicalstore.mysql;

import static dev.pinfeed.mysqlshards.query.Condition.eq;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.canonicalstore.CanonicalIds;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.mysqlshards.query.Delete;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.mysqlshards.query.Upsert;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes the fix of canonical rows that differ from what the events say ({@link ComparableRows#diff}): a row
 * missing or different takes exactly the expected columns, an extra row is deleted. Each fix is one idempotent
 * statement on the row's own shard (an object's, a mapping's from-object's), so a repair interrupted half way
 * is finished by running it again. The caller holds the materializer stopped meanwhile, or a fix could overwrite
 * what a newer event just wrote.
 */
public final class CanonicalRepair {

    private CanonicalRepair() {}

    /** Applies the fix of every difference (one statement each); returns how many fixes were written. */
    public static int apply(ShardedDb db, List<ComparableRows.Difference> differences) {
        for (ComparableRows.Difference d : differences) {
            Optional<Mapping> mapping = mapping(d.table());
            if (mapping.isPresent()) {
                fixMapping(db, mapping.get(), d);
            } else {
                fixObject(db, d);
            }
        }
        return differences.size();
    }

    private static int fixObject(ShardedDb db, ComparableRows.Difference d) {
        long id = Long.parseLong(d.key());
        int shard = CanonicalIds.shardOf(id);
        long local = CanonicalIds.localOf(id);
        if (d.kind() == ComparableRows.Difference.Kind.EXTRA) {
            return db.write(shard, Delete.from(d.table()).where(eq(CanonicalLayout.LOCAL_ID, local)));
        }
        Map<String, Object> want = d.expected();
        List<String> columns = new ArrayList<>(List.of(CanonicalLayout.LOCAL_ID, CanonicalLayout.DATA));
        List<Object> values = new ArrayList<>(List.of(local, ((JsonNode) want.get(CanonicalLayout.DATA)).toString()));
        if (want.containsKey(CanonicalLayout.ORDER_VERSION)) {
            columns.add(CanonicalLayout.ORDER_VERSION);
            values.add(bytes(want.get(CanonicalLayout.ORDER_VERSION)));
        }
        if (want.containsKey(CanonicalLayout.TS)) {
            columns.add(CanonicalLayout.TS);
            values.add(Instant.parse((String) want.get(CanonicalLayout.TS)));
        }
        Upsert u = Upsert.into(d.table(), columns.toArray(String[]::new)).row(values.toArray());
        columns.subList(1, columns.size()).forEach(u::overwrite);
        return db.write(shard, u);
    }

    private static int fixMapping(ShardedDb db, Mapping m, ComparableRows.Difference d) {
        String[] pair = d.key().split("/");
        long from = Long.parseLong(pair[0]);
        long to = Long.parseLong(pair[1]);
        int shard = CanonicalIds.shardOf(from);
        if (d.kind() == ComparableRows.Difference.Kind.EXTRA) {
            return db.write(shard, Delete.from(m.table()).where(eq(m.from(), from), eq(m.to(), to)));
        }
        List<String> columns = new ArrayList<>(List.of(m.from(), m.to()));
        List<Object> values = new ArrayList<>(List.of(from, to));
        d.expected().forEach((column, value) -> {
            columns.add(column);
            values.add(column.equals(CanonicalLayout.VERSION) ? bytes(value) : value);
        });
        Upsert u = Upsert.into(m.table(), columns.toArray(String[]::new)).row(values.toArray());
        columns.subList(2, columns.size()).forEach(u::overwrite);
        return db.write(shard, u);
    }

    private static Optional<Mapping> mapping(String table) {
        for (Mapping m : Mapping.values()) if (m.table().equals(table)) return Optional.of(m);
        return Optional.empty();
    }

    /** A binary column as {@link ComparableRows} compares it (hex), back to its bytes. */
    private static byte[] bytes(Object hex) {
        return hex == null ? null : HexFormat.of().parseHex((String) hex);
    }
}
