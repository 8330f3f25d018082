package dev.pinfeed.followergraph.audit;

import java.util.List;
import java.util.Map;

/**
 * What an audit found: the keys that differ from the oracle and the pairs whose sequences break the
 * invariant; how many graph keys each instance held and how many the oracle held at the full scan (a
 * re-check carries the scan's counts).
 */
public record Findings(List<KeyDifference> keys, List<SequenceDifference> sequences, Map<String, Long> graphKeysByInstance,
                       long expectedKeys) {

    public Findings {
        keys = List.copyOf(keys);
        sequences = List.copyOf(sequences);
        graphKeysByInstance = Map.copyOf(graphKeysByInstance);
    }

    public boolean clean() {
        return keys.isEmpty() && sequences.isEmpty();
    }

    public int count() {
        return keys.size() + sequences.size();
    }
}
