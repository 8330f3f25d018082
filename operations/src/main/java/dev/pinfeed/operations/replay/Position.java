package dev.pinfeed.operations.replay;

import dev.pinfeed.clikit.TimeArgument;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;

/**
 * Where a replay starts ({@code --from}) or ends ({@code --to}) in each partition of a view's topics: the
 * beginning of the log, one offset for every partition, or a time (the first record at or after it, by the
 * records' timestamps), in any form {@link TimeArgument} reads.
 */
public sealed interface Position {

    /** The log start of each partition. */
    record Beginning() implements Position {
        @Override public String toString() { return "beginning"; }
    }

    /** The same offset in every partition (clamped to each partition's log). */
    record Offset(long offset) implements Position {
        @Override public String toString() { return Long.toString(offset); }
    }

    /** The first record at or after this time in each partition (the log end where none is). */
    record Time(Instant at) implements Position {
        @Override public String toString() { return at.toString(); }
    }

    /** Parses {@code text} as of {@code clock}'s now; a text that is none of the forms is an {@link IllegalArgumentException} naming them. */
    static Position parse(String text, Clock clock) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("beginning") || t.equals("earliest")) return new Beginning();
        if (t.matches("\\d+")) return new Offset(Long.parseLong(t));
        try {
            return new Time(TimeArgument.parse(text, clock));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is no position: say beginning, an offset (1200) or " + TimeArgument.FORMS);
        }
    }
}
