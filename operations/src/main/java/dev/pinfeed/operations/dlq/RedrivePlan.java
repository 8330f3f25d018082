package dev.pinfeed.operations.dlq;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * What a redrive does with the dead letters it selected: sends each back to its source topic, except those
 * already redriven (the redrive log has them: never twice), those that failed again after a redrive (never a
 * loop: the cause needs a look), and those with no source topic to go back to.
 */
public record RedrivePlan(List<DeadLetter> toRedrive, List<DeadLetter> alreadyRedriven, List<DeadLetter> failedAgain,
                          List<DeadLetter> unroutable) {

    public static RedrivePlan of(Collection<DeadLetter> selected, Set<DeadLetterId> redriven, Predicate<String> topicExists) {
        List<DeadLetter> send = new ArrayList<>();
        List<DeadLetter> already = new ArrayList<>();
        List<DeadLetter> again = new ArrayList<>();
        List<DeadLetter> nowhere = new ArrayList<>();
        for (DeadLetter d : selected.stream().sorted((a, b) -> a.id().compareTo(b.id())).toList()) {
            if (d.failedAgainAfterRedrive()) again.add(d);
            else if (redriven.contains(d.id())) already.add(d);
            else if (d.sourceTopic() == null || !topicExists.test(d.sourceTopic())) nowhere.add(d);
            else send.add(d);
        }
        return new RedrivePlan(List.copyOf(send), List.copyOf(already), List.copyOf(again), List.copyOf(nowhere));
    }

    /**
     * {@link #toRedrive} grouped by the record they were read from, in order: two processors that dead-lettered the
     * same record (both consume its topic) get it back once, not twice each.
     */
    public List<List<DeadLetter>> bySourceRecord() {
        Map<String, List<DeadLetter>> groups = new LinkedHashMap<>();
        for (DeadLetter d : toRedrive) groups.computeIfAbsent(d.sourceKnown() ? d.source() : "dead letter " + d.id(), k -> new ArrayList<>()).add(d);
        return groups.values().stream().map(List::copyOf).toList();
    }

    /** How many records go back to each source topic. */
    public Map<String, Integer> bySourceTopic() {
        Map<String, Integer> counts = new TreeMap<>();
        for (List<DeadLetter> record : bySourceRecord()) counts.merge(record.get(0).sourceTopic(), 1, Integer::sum);
        return counts;
    }

    public int selected() {
        return toRedrive.size() + alreadyRedriven.size() + failedAgain.size() + unroutable.size();
    }
}
