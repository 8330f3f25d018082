package dev.pinfeed.materializer;

import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.canonicalstore.mysql.CanonicalSnapshot;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.materializer.oracle.CanonicalOracle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;

/**
 * A random mixed history under fresh ids: users, boards, pins, deletes, likes and unlikes with many
 * equal timestamps, comments (one per two pins, on their pin's shard, a quarter deleted), reorders, interests (three, pins
 * carrying 0-2 of them, a repin its parent's, a delete naming them);
 * plus the rows it must leave ({@link CanonicalOracle}).
 */
public final class History {

    public final List<SpecificRecord> events = new ArrayList<>();
    public final Set<Long> ids = new TreeSet<>();

    /** @param fresh a fresh id per type (Fixture::freshId) */
    public static History mixed(Function<ObjectType, Long> fresh, Random random, int users, int boards, int pins, int likes, int reorders) {
        History h = new History();
        long t = 1_780_000_000_000L;
        List<Long> interestIds = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            long interest = fresh.apply(ObjectType.INTEREST);
            interestIds.add(interest);
            h.events.add(new dev.pinfeed.events.InterestCreated(Events.nextEventId(), java.time.Instant.ofEpochMilli(t + 500 + i), interest,
                    "interest-" + interest));
        }
        java.util.Map<Long, List<Long>> interestsOf = new java.util.HashMap<>();
        List<Long> userIds = new ArrayList<>();
        for (int i = 0; i < users; i++) {
            long u = fresh.apply(ObjectType.USER);
            userIds.add(u);
            h.events.add(Events.user(u, t + i));
        }
        List<long[]> boardIds = new ArrayList<>(); // board, owner
        for (int i = 0; i < boards; i++) {
            long b = fresh.apply(ObjectType.BOARD);
            long owner = userIds.get(random.nextInt(users));
            boardIds.add(new long[] {b, owner});
            h.events.add(Events.board(b, owner, t + 1_000 + i));
        }
        List<List<Long>> onBoard = new ArrayList<>();
        for (int i = 0; i < boards; i++) onBoard.add(new ArrayList<>());
        List<Long> pinIds = new ArrayList<>();
        for (int i = 0; i < pins; i++) {
            long p = fresh.apply(ObjectType.PIN);
            int b = random.nextInt(boards);
            long[] board = boardIds.get(b);
            // Every fourth pin or so is a repin of an earlier one (its parent's pin_has_repins row, on another shard).
            Long parent = !pinIds.isEmpty() && random.nextInt(4) == 0 ? pinIds.get(random.nextInt(pinIds.size())) : null;
            pinIds.add(p);
            onBoard.get(b).add(p);
            dev.pinfeed.events.PinCreated created = parent == null ? Events.pin(p, board[0], board[1], t + 10_000 + i)
                    : Events.repin(p, parent, board[0], board[1], t + 10_000 + i);
            List<Long> carried = new ArrayList<>();
            if (parent != null) carried.addAll(interestsOf.get(parent)); // a repin carries its parent's interests
            else for (int k = random.nextInt(3); k > 0; k--) {
                long interest = interestIds.get(random.nextInt(interestIds.size()));
                if (!carried.contains(interest)) carried.add(interest);
            }
            interestsOf.put(p, carried);
            created.setInterestIds(carried);
            h.events.add(created);
            if (random.nextInt(5) == 0) {
                dev.pinfeed.events.PinDeleted deleted = Events.deleted(p, board[0], board[1], t + 100_000 + i);
                deleted.setInterestIds(carried);
                h.events.add(deleted);
            }
        }
        for (int i = 0; i < likes; i++) {
            long u = userIds.get(random.nextInt(users));
            long p = pinIds.get(random.nextInt(pins));
            long at = t + 200_000 + random.nextInt(likes / 4 + 1); // many equal times: the event id decides
            h.events.add(random.nextInt(3) == 0 ? Events.unliked(u, p, at) : Events.liked(u, p, at));
        }
        List<Long> commentIds = new ArrayList<>();
        for (int i = 0; i < pins / 2; i++) {
            long p = pinIds.get(random.nextInt(pins));
            long c = ShardedId.compose(ShardedId.decode(p).shard(), ObjectType.COMMENT, ShardedId.decode(fresh.apply(ObjectType.COMMENT)).localId());
            long author = userIds.get(random.nextInt(users));
            commentIds.add(c);
            h.events.add(Events.commented(c, p, author, t + 250_000 + i));
            if (random.nextInt(4) == 0) h.events.add(Events.uncommented(c, p, author, t + 260_000 + i));
        }
        for (int i = 0; i < reorders; i++) {
            int b = random.nextInt(boards);
            List<Long> order = new ArrayList<>(onBoard.get(b));
            Collections.shuffle(order, random);
            h.events.add(Events.reordered(boardIds.get(b)[0], boardIds.get(b)[1], t + 300_000 + random.nextInt(reorders / 2 + 1),
                    order.subList(0, random.nextInt(order.size() + 1))));
        }
        h.ids.addAll(userIds);
        boardIds.forEach(b -> h.ids.add(b[0]));
        h.ids.addAll(pinIds);
        h.ids.addAll(commentIds);
        h.ids.addAll(interestIds);
        return h;
    }

    /** The history in a random order (each topic then sees its events out of their natural order too). */
    public List<SpecificRecord> shuffled(Random random) {
        List<SpecificRecord> out = new ArrayList<>(events);
        Collections.shuffle(out, random);
        return out;
    }

    /** The rows the history must leave. */
    public ComparableRows expected() {
        EventPlanner planner = new EventPlanner();
        CanonicalOracle model = new CanonicalOracle();
        List<EventPlanner.Plan> never = model.applyAll(events.stream().map(planner::plan).toList());
        if (!never.isEmpty()) throw new IllegalStateException(never.size() + " events of the history can never apply");
        return model.rows();
    }

    public static Supplier<Boolean> matches(Fixture f, History h, ComparableRows expected) {
        return () -> CanonicalSnapshot.read(f.db, h.ids, false).equals(expected);
    }
}
