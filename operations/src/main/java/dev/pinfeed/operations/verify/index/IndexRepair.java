package dev.pinfeed.operations.verify.index;

import static dev.pinfeed.mysqlshards.query.Condition.eq;

import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.mysqlshards.query.Delete;
import dev.pinfeed.mysqlshards.query.HostWriter;
import dev.pinfeed.mysqlshards.query.Row;
import dev.pinfeed.mysqlshards.query.Select;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.mysqlshards.query.Update;
import dev.pinfeed.mysqlshards.query.Upsert;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Writes the fixes of a report, each conditional on the claim it found (so a repair run twice, or
 * racing an ingest, writes nothing wrong): a DELETE or UPDATE names the user the claim must still
 * name; an INSERT keeps any claim that exists by then. The fixes of one host run in transactions of
 * up to {@value #FIXES_PER_TRANSACTION}; a stop request is honoured between them.
 */
final class IndexRepair {

    static final int FIXES_PER_TRANSACTION = 500;

    /** What a fix did. */
    enum Result {
        /** Written. */
        WRITTEN,
        /** Nothing left to change: the claim had already changed since the scan (fixed by someone, or gone). */
        NOTHING_TO_CHANGE,
        /** Not written: the user's row appeared meanwhile, or another user's claim took the name first. */
        LEFT_ALONE
    }

    /** The results, and whether a stop request ended the repair early (the rest not written). */
    record Outcome(Map<IndexFix, Result> results, boolean stopped) {
        long count(Result r) {
            return results.values().stream().filter(r::equals).count();
        }
    }

    private final ShardedDb db;

    IndexRepair(ShardedDb db) {
        this.db = db;
    }

    /**
     * Applies {@code fixes}. {@code currentUsernames}: the usernames of the users the fixes would take a
     * name from, read again after the scan ({@link IndexFix#recheckUserId}); a fix that is no longer safe
     * is left alone.
     */
    Outcome apply(List<IndexFix> fixes, Map<Long, String> currentUsernames, BooleanSupplier stop) {
        Map<IndexFix, Result> results = new LinkedHashMap<>();
        Map<String, List<IndexFix>> byHost = new LinkedHashMap<>();
        for (IndexFix f : fixes) {
            if (f.safeGiven(currentUsernames)) byHost.computeIfAbsent(db.hostOf(f.shard()), h -> new ArrayList<>()).add(f);
            else results.put(f, Result.LEFT_ALONE);
        }
        for (Map.Entry<String, List<IndexFix>> host : byHost.entrySet()) {
            List<IndexFix> all = host.getValue();
            for (int from = 0; from < all.size(); from += FIXES_PER_TRANSACTION) {
                if (stop.getAsBoolean()) return new Outcome(results, true);
                List<IndexFix> chunk = all.subList(from, Math.min(all.size(), from + FIXES_PER_TRANSACTION));
                results.putAll(db.inTransaction(host.getKey(), w -> {
                    Map<IndexFix, Result> done = new LinkedHashMap<>();
                    for (IndexFix f : chunk) done.put(f, write(w, f));
                    return done;
                }));
            }
        }
        return new Outcome(results, false);
    }

    private static Result write(HostWriter w, IndexFix fix) throws SQLException {
        if (fix instanceof IndexFix.DeleteClaim d) {
            int n = w.execute(d.shard(), Delete.from(CanonicalLayout.USERNAMES)
                    .where(eq(CanonicalLayout.USERNAME, d.username()), eq(CanonicalLayout.USER_ID, d.userId())));
            return n > 0 ? Result.WRITTEN : Result.NOTHING_TO_CHANGE;
        }
        if (fix instanceof IndexFix.MoveClaim m) {
            int n = w.execute(m.shard(), Update.table(CanonicalLayout.USERNAMES).set(CanonicalLayout.USER_ID, m.toUserId())
                    .where(eq(CanonicalLayout.USERNAME, m.username()), eq(CanonicalLayout.USER_ID, m.fromUserId())));
            return n > 0 ? Result.WRITTEN : Result.NOTHING_TO_CHANGE;
        }
        IndexFix.InsertClaim i = (IndexFix.InsertClaim) fix;
        Select claim = Select.from(CanonicalLayout.USERNAMES).columns(CanonicalLayout.USER_ID).where(eq(CanonicalLayout.USERNAME, i.username()));
        List<Row> before = w.select(i.shard(), claim);
        if (!before.isEmpty()) return before.get(0).getLong(CanonicalLayout.USER_ID) == i.userId() ? Result.NOTHING_TO_CHANGE : Result.LEFT_ALONE;
        // An ingest may claim the name between the read and the insert: its claim stays, and the read back tells.
        w.execute(i.shard(), Upsert.into(CanonicalLayout.USERNAMES, CanonicalLayout.USERNAME, CanonicalLayout.USER_ID)
                .row(i.username(), i.userId()).keepExisting());
        List<Row> after = w.select(i.shard(), claim);
        return after.get(0).getLong(CanonicalLayout.USER_ID) == i.userId() ? Result.WRITTEN : Result.LEFT_ALONE;
    }
}
