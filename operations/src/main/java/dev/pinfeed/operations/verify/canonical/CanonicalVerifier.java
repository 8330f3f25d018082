package dev.pinfeed.operations.verify.canonical;

import dev.pinfeed.canonicalstore.CanonicalChange;
import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.canonicalstore.mysql.CanonicalSnapshot;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.materializer.EventPlanner;
import dev.pinfeed.materializer.MaterializerTopics;
import dev.pinfeed.materializer.oracle.CanonicalOracle;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.processorruntime.RejectedRecordException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;

/**
 * Topics against shards: every event is planned ({@link EventPlanner}) into a {@link CanonicalOracle};
 * the rows of the objects the events name are read from the shards ({@link CanonicalSnapshot}); the
 * two are compared column by column, {@code ts} (the newest event's time) included. Events may be added
 * between comparisons (a verification catching up with events that arrived meanwhile).
 */
public final class CanonicalVerifier {

    /** What the events were and how the store compares. */
    public record Report(long events, Map<String, Long> skipped, int neverApplicable, int expectedRows, int storedRows,
                         List<ComparableRows.Difference> differences) {
        public boolean clean() {
            return differences.isEmpty();
        }

        /** This report with only the differences of rows named by {@code keys} ({@code "<table> <key>"}). */
        public Report only(Set<String> keys) {
            return new Report(events, skipped, neverApplicable, expectedRows, storedRows,
                    differences.stream().filter(d -> keys.contains(d.table() + " " + d.key())).toList());
        }
    }

    private final EventPlanner planner = new EventPlanner();
    private final MaterializerTopics topics;
    private final List<EventPlanner.Plan> plans = new ArrayList<>();
    private final Map<String, Long> skipped = new TreeMap<>();
    private long events;
    /** The model of the first {@code modelled} plans: the rows they make, their object ids, how many never apply. */
    private int modelled = -1;
    private ComparableRows expected;
    private Set<Long> ids;
    private int neverApplied;

    public CanonicalVerifier(MaterializerTopics topics) {
        this.topics = topics;
    }

    /** One event as read from {@code topic}; what the materializer would reject is counted, not modelled. */
    public void add(String topic, SpecificRecord event) {
        events++;
        if (!topics.carries(topic, event)) {
            skip(DeadLetters.UNEXPECTED_EVENT);
            return;
        }
        try {
            plans.add(planner.plan(event));
        } catch (RejectedRecordException e) {
            skip(e.reason());
        }
    }

    /** A record that did not decode (the materializer dead-letters it). */
    public void undecodable() {
        events++;
        skip(DeadLetters.UNDECODABLE);
    }

    private void skip(String reason) {
        skipped.merge(reason, 1L, Long::sum);
    }

    public Report compare(ShardedDb db) {
        if (modelled != plans.size()) { // else nothing was read since (a compare after a repair): the same model
            CanonicalOracle model = new CanonicalOracle();
            neverApplied = model.applyAll(plans).size();
            expected = model.rows(true);
            ids = idsOf(plans);
            modelled = plans.size();
        }
        ComparableRows stored = CanonicalSnapshot.read(db, ids, true);
        return new Report(events, skipped, neverApplied, expected.size(), stored.size(), expected.diff(stored, Set.of()));
    }

    /** Every object id the plans name (the objects whose rows are read). */
    static Set<Long> idsOf(Collection<EventPlanner.Plan> plans) {
        Set<Long> ids = new TreeSet<>();
        for (EventPlanner.Plan p : plans) {
            for (CanonicalChange c : p.changes()) {
                ids.addAll(c.placedBy());
                if (c instanceof CanonicalChange.PutMapping m) ids.add(m.to());
                if (c instanceof CanonicalChange.DeactivateMapping m) ids.add(m.to());
                if (c instanceof CanonicalChange.ReorderBoard r) ids.addAll(r.pinIds());
            }
        }
        return ids;
    }
}
