package dev.pinfeed.followergraph.sharded;

import dev.pinfeed.followergraph.Edge;
import dev.pinfeed.followergraph.Page;
import dev.pinfeed.followergraph.sharded.GraphBackend.Reads;
import dev.pinfeed.followergraph.sharded.GraphBackend.Scored;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/** The newest-first lists (followers, following, boards followed, boards owned): sorted sets merged and paged by {@link Cursors.After}. */
final class NewestFirstLists {

    private static final Comparator<Edge> NEWEST_FIRST =
            Comparator.comparingLong(Edge::since).thenComparingLong(Edge::id).reversed();

    /** A sorted set of the list, and whether its members are explicit. */
    record Source(String key, boolean explicit) {}

    private final GraphShards shards;
    private final GraphKeys keys;

    NewestFirstLists(GraphShards shards) {
        this.shards = shards;
        this.keys = shards.keys;
    }

    Page<Edge> followers(long userId, String cursor, int limit) {
        return page(userId, List.of(new Source(keys.followersExplicit(userId), true),
                new Source(keys.followersImplicit(userId), false)), cursor, limit);
    }

    Page<Edge> followingUsers(long userId, String cursor, int limit) {
        return page(userId, List.of(new Source(keys.followingExplicit(userId), true),
                new Source(keys.followingImplicit(userId), false)), cursor, limit);
    }

    Page<Edge> followingBoards(long userId, String cursor, int limit) {
        return page(userId, List.of(new Source(keys.boardsFollowed(userId), true)), cursor, limit);
    }

    Page<Edge> boardsOf(long ownerId, String cursor, int limit) {
        return page(ownerId, List.of(new Source(keys.boardsOwned(ownerId), true)), cursor, limit);
    }

    Page<Edge> followingInterests(long userId, String cursor, int limit) {
        return page(userId, List.of(new Source(keys.interestsFollowed(userId), true)), cursor, limit);
    }

    /** The interest's followers: its key carries the interest's tag, so the page is read where the interest lives. */
    Page<Edge> interestFollowers(long interestId, String cursor, int limit) {
        return page(interestId, List.of(new Source(keys.interestFollowers(interestId), true)), cursor, limit);
    }

    private Page<Edge> page(long user, List<Source> sources, String cursor, int limit) {
        Cursors.checkLimit(limit);
        List<Edge> next = after(shards.instance(user), sources, Cursors.After.decode(cursor), limit + 1);
        if (next.size() <= limit) return new Page<>(next, null);
        List<Edge> page = next.subList(0, limit);
        Edge last = page.get(limit - 1);
        return new Page<>(page, new Cursors.After(last.since(), last.id()).encode());
    }

    /**
     * At least the first {@code want} edges after {@code after} (null: from the start) of the merged
     * sources, in (since desc, id desc) order. Redis orders equal scores by member string, not by number,
     * so an equal-score group is always read whole: the cursor's own group, and a group the LIMIT may have cut.
     */
    List<Edge> after(String instance, List<Source> sources, Cursors.After after, int want) {
        Reads r = shards.reads(instance);
        List<Supplier<List<Scored>>> ties = new ArrayList<>();
        List<Supplier<List<Scored>>> rests = new ArrayList<>();
        for (Source s : sources) {
            ties.add(after == null ? List::of : r.zrangeByScoreEq(s.key(), after.since()));
            rests.add(r.zrevrangeByScore(s.key(), after == null ? null : after.since(), after != null, want));
        }
        r.execute();
        Reads groups = null;
        List<Supplier<List<Scored>>> lastGroups = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            List<Scored> rest = rests.get(i).get();
            if (rest.size() == want) {
                if (groups == null) groups = shards.reads(instance);
                lastGroups.add(groups.zrangeByScoreEq(sources.get(i).key(), rest.get(rest.size() - 1).score()));
            } else {
                lastGroups.add(null);
            }
        }
        if (groups != null) groups.execute();

        List<Edge> out = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            boolean explicit = sources.get(i).explicit();
            for (Scored s : ties.get(i).get()) {
                long id = Long.parseLong(s.member());
                if (after.precedes(s.score(), id)) out.add(new Edge(id, s.score(), explicit));
            }
            List<Scored> rest = rests.get(i).get();
            Long cutScore = lastGroups.get(i) == null ? null : rest.get(rest.size() - 1).score();
            for (Scored s : rest) {
                if (cutScore == null || s.score() != cutScore) out.add(new Edge(Long.parseLong(s.member()), s.score(), explicit));
            }
            if (cutScore != null) {
                for (Scored s : lastGroups.get(i).get()) out.add(new Edge(Long.parseLong(s.member()), s.score(), explicit));
            }
        }
        out.sort(NEWEST_FIRST);
        return out.size() > want ? new ArrayList<>(out.subList(0, want)) : out;
    }
}
