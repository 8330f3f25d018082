package dev.pinfeed.operations.dlq;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A dead letter's id: {@code PARTITION:OFFSET} in the dead-letter topic (the one owner of that form: what
 * {@code dlq list --ids} prints, {@code dlq show} and {@code dlq redrive --ids} take, and the redrive header carries).
 */
public record DeadLetterId(int partition, long offset) implements Comparable<DeadLetterId> {

    private static final Pattern FORM = Pattern.compile("(\\d{1,9}):(\\d{1,18})");
    private static final Comparator<DeadLetterId> ORDER = Comparator.comparingInt(DeadLetterId::partition).thenComparingLong(DeadLetterId::offset);

    public DeadLetterId {
        if (partition < 0 || offset < 0) throw new IllegalArgumentException("a dead-letter id is never negative: " + partition + ":" + offset);
    }

    /** {@code 2:41}; anything else is refused with the expected form. */
    public static DeadLetterId parse(String text) {
        Matcher m = FORM.matcher(text == null ? "" : text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("bad dead-letter id '" + text + "': expected PARTITION:OFFSET, e.g. 0:41 (dlq list --ids prints them)");
        }
        return new DeadLetterId(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
    }

    /** {@code 0:41,2:7}: each id once, in the order given. */
    public static List<DeadLetterId> parseList(String text) {
        Set<DeadLetterId> ids = new LinkedHashSet<>();
        for (String part : (text == null ? "" : text).split(",")) {
            if (!part.isBlank()) ids.add(parse(part));
        }
        if (ids.isEmpty()) throw new IllegalArgumentException("no dead-letter id given: expected PARTITION:OFFSET[,PARTITION:OFFSET...]");
        return new ArrayList<>(ids);
    }

    @Override
    public int compareTo(DeadLetterId other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return partition + ":" + offset;
    }
}
