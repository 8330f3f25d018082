package dev.pinfeed.materializer;

import dev.pinfeed.canonicalstore.CacheInvalidation;
import dev.pinfeed.canonicalstore.CacheInvalidator;
import dev.pinfeed.canonicalstore.CanonicalChange;
import dev.pinfeed.canonicalstore.CanonicalRef;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalWriter;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.processorruntime.BatchHandler;
import dev.pinfeed.processorruntime.InputRecord;
import dev.pinfeed.processorruntime.Outcomes;
import dev.pinfeed.processorruntime.RejectedRecordException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A poll's records → canonical rows. Per batch: plan every record ({@link EventPlanner}); look up the
 * rows they need in one statement per (host, table); settle which records can apply — a row another
 * record of this batch creates counts — and let the others wait ({@code missing-reference}: topics are
 * not ordered with each other, so a like may come before its pin); write the applicable records'
 * changes, one transaction per host, hosts in parallel; then invalidate the cache keys the committed
 * changes touch. A record whose host (MySQL or Redis) is down is marked unavailable and retried by the
 * loop; every write is idempotent and order-free, so retries and replays converge.
 */
public final class MaterializerHandler implements BatchHandler {

    private final EventPlanner planner;
    private final MysqlCanonicalWriter writer;
    private final CacheInvalidator cache;
    private final MaterializerTopics topics;
    private final MeterRegistry meters;
    private final DistributionSummary batchSize;

    public MaterializerHandler(EventPlanner planner, MysqlCanonicalWriter writer, CacheInvalidator cache, MaterializerTopics topics,
                               MeterRegistry meters) {
        this.planner = planner;
        this.writer = writer;
        this.cache = cache;
        this.topics = topics;
        this.meters = meters;
        this.batchSize = DistributionSummary.builder("materializer.batch.size").description("Records per batch the materializer applies.")
                .register(meters);
    }

    /** Where a record stands while its batch is settled. */
    private static final class Entry {
        final InputRecord record;
        final EventPlanner.Plan plan;
        /** Records of this batch whose rows this one relies on. */
        final Set<Entry> providers = new HashSet<>();
        boolean ready;
        StoreUnavailableException down;

        Entry(InputRecord record, EventPlanner.Plan plan) {
            this.record = record;
            this.plan = plan;
        }
    }

    @Override
    public void apply(List<InputRecord> records, Outcomes outcomes) {
        batchSize.record(records.size());
        List<Entry> entries = plan(records, outcomes);
        settleReferences(entries, outcomes);

        List<Entry> ready = entries.stream().filter(e -> e.ready).toList();
        List<CanonicalChange> changes = new ArrayList<>();
        for (Entry e : ready) changes.addAll(e.plan.changes());
        MysqlCanonicalWriter.Outcome written = writer.apply(changes);
        written.rowsByTable().forEach((table, n) -> Counter.builder("materializer.rows.written")
                .description("Rows written (upserted) into the canonical tables, by table.").tag("table", table).register(meters).increment(n));

        // A record fails with its hosts; one relying on another record's rows fails with that record.
        for (Entry e : ready) {
            for (CanonicalChange c : e.plan.changes()) {
                for (String host : writer.hostsOf(c)) {
                    if (e.down == null && written.failedHosts().containsKey(host)) e.down = written.failedHosts().get(host);
                }
            }
        }
        for (Entry e : ready) {
            for (Entry p : e.providers) if (e.down == null && p.down != null) e.down = p.down;
        }

        // Invalidate what committed (even a record half-written on a failed host: its committed half is visible).
        List<CacheInvalidation> invalidations = new ArrayList<>();
        for (CanonicalChange c : changes) {
            if (!written.failedHosts().keySet().containsAll(writer.hostsOf(c))) invalidations.addAll(c.invalidations());
        }
        Map<String, StoreUnavailableException> cacheDown = invalidations.isEmpty() ? Map.of() : cache.invalidate(invalidations);
        for (Entry e : ready) {
            if (e.down == null && !cacheDown.isEmpty()) {
                for (CanonicalChange c : e.plan.changes()) {
                    for (CacheInvalidation i : c.invalidations()) {
                        StoreUnavailableException d = cacheDown.get(cache.instanceOf(i.objectId()));
                        if (d != null && e.down == null) e.down = d;
                    }
                }
            }
            if (e.down != null) outcomes.unavailable(e.record, e.down);
        }
    }

    /** Plans each record; a record that cannot ever apply is rejected here and left out. */
    private List<Entry> plan(List<InputRecord> records, Outcomes outcomes) {
        List<Entry> entries = new ArrayList<>(records.size());
        int shardCount = writer.shardCount();
        for (InputRecord r : records) {
            try {
                if (!topics.carries(r.topic(), r.event())) {
                    throw new RejectedRecordException(DeadLetters.UNEXPECTED_EVENT, r.eventType() + " does not belong on " + r.topic());
                }
                EventPlanner.Plan plan = planner.plan(r.event());
                checkShards(plan, shardCount);
                entries.add(new Entry(r, plan));
            } catch (RejectedRecordException e) {
                outcomes.reject(r, e.reason(), e.getMessage());
            }
        }
        return entries;
    }

    /** Ids naming a shard the map does not have could never be written. */
    private static void checkShards(EventPlanner.Plan plan, int shardCount) {
        Set<Integer> shards = new LinkedHashSet<>();
        plan.changes().forEach(c -> shards.addAll(c.shards()));
        plan.needs().forEach(n -> shards.add(n.shard()));
        for (int s : shards) {
            if (s >= shardCount) throw new RejectedRecordException(DeadLetters.INVALID, "shard " + s + " is beyond the shard map (" + shardCount + " shards)");
        }
    }

    /**
     * Marks each entry ready when every row it needs exists in the store or is created by a ready
     * entry of this batch (repeated until nothing changes: a like may rely on a pin that relies on a
     * board, all in this batch). The rest wait, or are unavailable when a row they need lives on a
     * host that could not be asked.
     */
    private void settleReferences(List<Entry> entries, Outcomes outcomes) {
        Set<CanonicalRef> needed = new HashSet<>();
        for (Entry e : entries) needed.addAll(e.plan.needs());
        MysqlCanonicalWriter.Existing existing = needed.isEmpty()
                ? new MysqlCanonicalWriter.Existing(Set.of(), Map.of()) : writer.existing(needed);
        Map<CanonicalRef, Entry> providedBy = new HashMap<>();
        boolean progress = true;
        while (progress) {
            progress = false;
            for (Entry e : entries) {
                if (e.ready) continue;
                Set<Entry> providers = new HashSet<>();
                boolean all = true;
                for (CanonicalRef need : e.plan.needs()) {
                    if (existing.found().contains(need)) continue;
                    Entry p = providedBy.get(need);
                    if (p == null) {
                        all = false;
                        break;
                    }
                    providers.add(p);
                }
                if (!all) continue;
                e.ready = true;
                e.providers.addAll(providers);
                for (CanonicalChange c : e.plan.changes()) for (CanonicalRef r : c.provides()) providedBy.putIfAbsent(r, e);
                progress = true;
            }
        }
        for (Entry e : entries) {
            if (e.ready) continue;
            List<String> missing = new ArrayList<>();
            StoreUnavailableException down = null;
            for (CanonicalRef need : e.plan.needs()) {
                if (existing.found().contains(need) || providedBy.containsKey(need)) continue;
                StoreUnavailableException d = existing.failedHosts().get(writer.hostOf(need.shard()));
                if (d != null) down = d;
                missing.add(need.describe());
            }
            if (down != null) {
                outcomes.unavailable(e.record, down);
            } else {
                String what = missing.size() <= 5 ? String.join(", ", missing)
                        : String.join(", ", missing.subList(0, 5)) + " and " + (missing.size() - 5) + " more";
                outcomes.waitFor(e.record, DeadLetters.MISSING_REFERENCE, "no " + what + " (yet)");
            }
        }
    }
}
