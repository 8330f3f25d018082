package dev.pinfeed.followergraph.audit;

import dev.pinfeed.followergraph.sharded.GraphKeys;
import java.util.List;

/**
 * One graph key that is not as the events say, on one instance: its type as expected and as found
 * ({@code none} = absent) and every member (sorted-set member, set member, hash field) that differs.
 * {@code home} is the instance the shard map puts the key on; a key found elsewhere is extra there.
 */
public record KeyDifference(String instance, String home, String key, GraphKeys.Key parsed, String expectedType,
                            String actualType, List<MemberDifference> members) {

    public enum Shape { MISSING, EXTRA, DIFFERENT }

    /** A member as expected and as found; null = absent (a set's present member is ""). */
    public record MemberDifference(String member, String expected, String actual) {}

    public Shape shape() {
        if (expectedType.equals("none")) return Shape.EXTRA;
        if (actualType.equals("none")) return Shape.MISSING;
        return Shape.DIFFERENT;
    }

    /** Found on an instance the shard map does not put it on. */
    public boolean misplaced() {
        return !instance.equals(home);
    }

    /** The key exists with a type its kind never has. */
    public boolean wrongType() {
        return !actualType.equals("none") && !actualType.equals(parsed.kind().redisType());
    }
}
