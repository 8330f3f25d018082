package dev.pinfeed.followergraph.sharded;

import static dev.pinfeed.followergraph.sharded.GraphShards.str;

import dev.pinfeed.followergraph.Edge;
import dev.pinfeed.followergraph.Page;
import dev.pinfeed.followergraph.Receiver;
import dev.pinfeed.followergraph.sharded.Cursors.After;
import dev.pinfeed.followergraph.sharded.Cursors.BoardFollowers;
import dev.pinfeed.followergraph.sharded.Cursors.OwnersFollowers;
import dev.pinfeed.followergraph.sharded.GraphBackend.Reads;
import dev.pinfeed.followergraph.sharded.GraphBackend.ScanBatch;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A board's receivers (its pins' fan-out list) and their count, both on the owner's instance: the
 * owner's explicit followers minus the board's unfollowers, plus the board's explicit followers who
 * do not follow the owner explicitly.
 */
final class BoardReceivers {

    /** HSCAN step when counting. */
    private static final int COUNT_BATCH = 1000;

    private final GraphShards shards;
    private final GraphKeys keys;
    private final PointQueries points;
    private final NewestFirstLists lists;

    BoardReceivers(GraphShards shards, PointQueries points, NewestFirstLists lists) {
        this.shards = shards;
        this.keys = shards.keys;
        this.points = points;
        this.lists = lists;
    }

    /**
     * Two phases: the owner's explicit followers newest first, minus the board's unfollowers; then the
     * board's explicit-follower hash by HSCAN, minus those already returned as explicit followers of the owner.
     */
    Page<Receiver> page(long boardId, String cursor, int limit) {
        Cursors.checkLimit(limit);
        Cursors.Receivers position = Cursors.Receivers.decode(cursor); // refused even for a board without an owner
        Long owner = points.ownerOf(boardId);
        if (owner == null) return new Page<>(List.of(), null);
        String instance = shards.instance(owner);
        List<Receiver> page = new ArrayList<>();
        String scan;
        if (position instanceof OwnersFollowers phase1) {
            After after = phase1.after();
            Edge lastKept = null;
            while (true) {
                List<Edge> batch = lists.after(instance,
                        List.of(new NewestFirstLists.Source(keys.followersExplicit(owner), true)), after, limit + 1);
                if (batch.isEmpty()) break;
                Reads r = shards.reads(instance);
                Supplier<List<Boolean>> excluded = r.smismember(keys.boardUnfollowers(owner, boardId),
                        batch.stream().map(e -> str(e.id())).toList());
                r.execute();
                for (int i = 0; i < batch.size(); i++) {
                    if (excluded.get().get(i)) continue;
                    if (page.size() == limit) {
                        return new Page<>(page, new OwnersFollowers(new After(lastKept.since(), lastKept.id())).encode());
                    }
                    page.add(new Receiver(batch.get(i).id(), true));
                    lastKept = batch.get(i);
                }
                Edge tail = batch.get(batch.size() - 1);
                after = new After(tail.since(), tail.id());
                if (batch.size() < limit + 1) break;
            }
            scan = "0"; // phase 2 not started yet
        } else {
            scan = ((BoardFollowers) position).scan();
        }
        if (page.size() >= limit) return new Page<>(page, new BoardFollowers(scan).encode());
        do {
            BoardOnly step = boardOnlyFollowers(instance, owner, boardId, scan, limit - page.size());
            for (long user : step.users()) page.add(new Receiver(user, false));
            scan = step.scan();
        } while (!scan.equals("0") && page.size() < limit);
        return new Page<>(page, scan.equals("0") ? null : new BoardFollowers(scan).encode());
    }

    /**
     * Which of {@code users} receive the board's pins, as {@link #page} counts them: explicit followers of the owner who did not
     * unfollow the board, and the board's explicit followers. One round trip to the owner's instance (after its owner's).
     */
    Set<Long> among(long boardId, Collection<Long> users) {
        Cursors.checkBatch(users);
        List<String> ids = GraphShards.distinct(users);
        Long owner = points.ownerOf(boardId);
        if (owner == null || ids.isEmpty()) return Set.of();
        Reads r = shards.reads(shards.instance(owner));
        Supplier<List<Long>> explicit = r.zmscore(keys.followersExplicit(owner), ids);
        Supplier<List<Boolean>> unfollowed = r.smismember(keys.boardUnfollowers(owner, boardId), ids);
        Supplier<List<String>> boardFollowers = r.hmget(keys.boardFollowers(owner, boardId), ids);
        r.execute();
        Set<Long> out = new HashSet<>();
        for (int i = 0; i < ids.size(); i++) {
            boolean viaOwner = explicit.get().get(i) != null && !unfollowed.get().get(i);
            if (viaOwner || boardFollowers.get().get(i) != null) out.add(Long.parseLong(ids.get(i)));
        }
        return out;
    }

    long count(long boardId) {
        Long owner = points.ownerOf(boardId);
        if (owner == null) return 0;
        String instance = shards.instance(owner);
        Reads r = shards.reads(instance);
        Supplier<Long> explicitFollowers = r.zcard(keys.followersExplicit(owner));
        Supplier<Long> unfollowers = r.scard(keys.boardUnfollowers(owner, boardId));
        r.execute();
        long count = explicitFollowers.get() - unfollowers.get();
        String scan = "0";
        do {
            BoardOnly step = boardOnlyFollowers(instance, owner, boardId, scan, COUNT_BATCH);
            count += step.users().size();
            scan = step.scan();
        } while (!scan.equals("0"));
        return count;
    }

    /** One HSCAN step over the board's followers: those who do not follow the owner explicitly, and the next scan cursor. */
    private record BoardOnly(String scan, List<Long> users) {}

    private BoardOnly boardOnlyFollowers(String instance, long owner, long boardId, String scan, int count) {
        Reads r = shards.reads(instance);
        Supplier<ScanBatch> step = r.hscan(keys.boardFollowers(owner, boardId), scan, count);
        r.execute();
        List<String> fields = step.get().fields();
        if (fields.isEmpty()) return new BoardOnly(step.get().cursor(), List.of());
        Reads check = shards.reads(instance);
        Supplier<List<Long>> explicit = check.zmscore(keys.followersExplicit(owner), fields);
        check.execute();
        List<Long> users = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            if (explicit.get().get(i) == null) users.add(Long.parseLong(fields.get(i)));
        }
        return new BoardOnly(step.get().cursor(), users);
    }
}
