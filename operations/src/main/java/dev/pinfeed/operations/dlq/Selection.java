package dev.pinfeed.operations.dlq;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which dead letters a command works on: given ids, or those of a reason (and processor) dead-lettered at or
 * after a time. Null criteria match everything.
 */
public record Selection(String reason, String processor, Instant since, Set<DeadLetterId> ids) {

    public Selection {
        ids = ids == null ? Set.of() : Set.copyOf(ids);
    }

    public static Selection of(String reason, String processor, Instant since) {
        return new Selection(reason, processor, since, Set.of());
    }

    public static Selection ofIds(Set<DeadLetterId> ids) {
        return new Selection(null, null, null, ids);
    }

    public boolean byIds() {
        return !ids.isEmpty();
    }

    public boolean matches(DeadLetter d) {
        if (byIds()) return ids.contains(d.id());
        return (reason == null || reason.equals(d.reason())) && (processor == null || processor.equals(d.processor()))
                && (since == null || !d.time().isBefore(since));
    }

    /** For the reader: {@code reason missing-reference, processor pinfeed-materializer}, {@code ids 0:4, 1:2}, or {@code all}. */
    public String describe() {
        if (byIds()) return "ids " + String.join(", ", new TreeSet<>(ids).stream().map(DeadLetterId::toString).toList());
        List<String> parts = new ArrayList<>();
        if (reason != null) parts.add("reason " + reason);
        if (processor != null) parts.add("processor " + processor);
        if (since != null) parts.add("since " + since);
        return parts.isEmpty() ? "all" : String.join(", ", parts);
    }
}
