package dev.pinfeed.followergraph;

import dev.pinfeed.followergraph.GraphCommand.CreateBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowUser;
import dev.pinfeed.followergraph.GraphCommand.UnfollowBoard;
import dev.pinfeed.followergraph.GraphCommand.UnfollowUser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Random follower-graph histories for property tests: a small universe (so edges collide often),
 * ids of different decimal lengths (so Redis's string order of ties differs from numeric order),
 * event times from a narrow range (ties and reorderings), and a delivery order that is a random
 * permutation of the events with some delivered twice.
 */
public final class GraphScenarios {

    public static final long T0 = 1_767_225_600_000L;

    /** Users of different lengths; boards owned round-robin by the first four. */
    public static final List<Long> USERS = List.of(7L, 42L, 100L, 999L, 1000L, 123456789012L);
    public static final Map<Long, Long> BOARD_OWNERS = boardOwners();

    private GraphScenarios() {}

    private static Map<Long, Long> boardOwners() {
        Map<Long, Long> owners = new TreeMap<>();
        long[] boards = {5, 60, 700, 8000, 90000, 11, 222};
        for (int i = 0; i < boards.length; i++) owners.put(boards[i], USERS.get(i % 4));
        return owners;
    }

    public static List<Long> boards() {
        return List.copyOf(BOARD_OWNERS.keySet());
    }

    /** A history and the order it is delivered in. */
    public record Scenario(List<GraphCommand> events, List<GraphCommand> deliveries) {
        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("deliveries:\n");
            deliveries.forEach(d -> sb.append("  ").append(d).append('\n'));
            return sb.toString();
        }
    }

    public static Arbitrary<Scenario> scenarios(int minEvents, int maxEvents) {
        Arbitrary<List<GraphCommand>> events = event().list().ofMinSize(minEvents).ofMaxSize(maxEvents).map(GraphScenarios::withEventIds);
        return events.flatMap(list -> Combinators.combine(
                        Arbitraries.shuffle(list),
                        Arbitraries.integers().between(0, Math.max(0, list.size() - 1)).list().ofMaxSize(list.size() / 4))
                .as((order, dupIdx) -> {
                    List<GraphCommand> deliveries = new ArrayList<>(order);
                    for (int i : dupIdx) deliveries.add(Math.min(deliveries.size(), i * 2 % (deliveries.size() + 1)), order.get(i));
                    return new Scenario(list, deliveries);
                }));
    }

    /** Event ids unique within the scenario and unrelated to list order: a permutation of 1..n, scaled. */
    private static List<GraphCommand> withEventIds(List<GraphCommand> raw) {
        List<GraphCommand> out = new ArrayList<>();
        int n = raw.size();
        for (int i = 0; i < n; i++) {
            long id = 1 + (i * 7919L) % Math.max(1, n) + (long) n * i; // distinct, not monotone in i
            out.add(withId(raw.get(i), id));
        }
        return out;
    }

    private static GraphCommand withId(GraphCommand c, long id) {
        if (c instanceof FollowUser f) return new FollowUser(id, f.occurredAt(), f.followerId(), f.followeeId());
        if (c instanceof UnfollowUser u) return new UnfollowUser(id, u.occurredAt(), u.followerId(), u.followeeId());
        if (c instanceof FollowBoard f) return new FollowBoard(id, f.occurredAt(), f.followerId(), f.boardId(), f.boardOwnerId());
        if (c instanceof UnfollowBoard u) return new UnfollowBoard(id, u.occurredAt(), u.followerId(), u.boardId(), u.boardOwnerId());
        CreateBoard b = (CreateBoard) c;
        return new CreateBoard(id, b.occurredAt(), b.boardId(), b.ownerId());
    }

    private static Arbitrary<GraphCommand> event() {
        Arbitrary<Long> user = Arbitraries.of(USERS);
        Arbitrary<Long> board = Arbitraries.of(boards());
        Arbitrary<Long> at = Arbitraries.longs().between(0, 6).map(t -> T0 + t);
        Arbitrary<GraphCommand> userEdge = Combinators.combine(user, user, at, Arbitraries.of(true, false))
                .filter((a, b, t, f) -> !a.equals(b))
                .as((a, b, t, follow) -> follow ? new FollowUser(1, t, a, b) : new UnfollowUser(1, t, a, b));
        Arbitrary<GraphCommand> boardEdge = Combinators.combine(user, board, at, Arbitraries.of(true, false))
                .filter((a, x, t, f) -> !a.equals(BOARD_OWNERS.get(x)))
                .as((a, x, t, follow) -> follow ? new FollowBoard(1, t, a, x, BOARD_OWNERS.get(x))
                        : new UnfollowBoard(1, t, a, x, BOARD_OWNERS.get(x)));
        Arbitrary<GraphCommand> created = Combinators.combine(board, at).as((x, t) -> new CreateBoard(1, t, x, BOARD_OWNERS.get(x)));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, userEdge),
                net.jqwik.api.Tuple.of(5, boardEdge),
                net.jqwik.api.Tuple.of(1, created));
    }

    /** Ids offset into a fresh range, for stores on shared servers. */
    public static GraphCommand shifted(GraphCommand c, long offset) {
        if (c instanceof FollowUser f) return new FollowUser(f.eventId(), f.occurredAt(), f.followerId() + offset, f.followeeId() + offset);
        if (c instanceof UnfollowUser u) return new UnfollowUser(u.eventId(), u.occurredAt(), u.followerId() + offset, u.followeeId() + offset);
        if (c instanceof FollowBoard f) return new FollowBoard(f.eventId(), f.occurredAt(), f.followerId() + offset, f.boardId() + offset, f.boardOwnerId() + offset);
        if (c instanceof UnfollowBoard u) return new UnfollowBoard(u.eventId(), u.occurredAt(), u.followerId() + offset, u.boardId() + offset, u.boardOwnerId() + offset);
        CreateBoard b = (CreateBoard) c;
        return new CreateBoard(b.eventId(), b.occurredAt(), b.boardId() + offset, b.ownerId() + offset);
    }
}
