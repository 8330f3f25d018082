package dev.pinfeed.followergraph;

import dev.pinfeed.followergraph.GraphCommand.CreateBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowUser;
import dev.pinfeed.followergraph.GraphCommand.UnfollowBoard;
import dev.pinfeed.followergraph.GraphCommand.UnfollowUser;
import dev.pinfeed.followergraph.sharded.Cursors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The reference model of the follower graph: plain Java, no Redis, written to be obviously right
 * rather than fast. It keeps every distinct command and answers queries by replaying them in
 * {@link Version} order with the seed's rules stated as actions:
 * <ul>
 *   <li>follow user O: O joins A's explicit following (score = this follow's time); A's exceptions on
 *       O's boards are cleared (he follows all of O's boards again);</li>
 *   <li>unfollow user O: O leaves A's explicit following; A's exceptions on O's boards are cleared
 *       (they only qualify an explicit follow); boards A follows on their own stay followed;</li>
 *   <li>follow board X: X joins A's explicit boards (score = this follow's time); X's exception is cleared;</li>
 *   <li>unfollow board X of O: X leaves A's explicit boards; if A follows O explicitly, X becomes an exception.</li>
 * </ul>
 * Everything else is derived at query time: A follows board X iff X is explicit, or A follows X's
 * owner explicitly and X is no exception; A follows O implicitly iff not explicitly and at least one
 * of O's boards explicitly (score = the earliest of those follows). Because the replay is in version
 * order, the answer does not depend on arrival order or duplicates — the property the stores must match.
 *
 * <p>Board owners are claimed first-come (arrival order) like the stores do; a conflicting claim is rejected.
 * A test double: it lives in the test sources (and follower-graph's test-jar), never in a service.
 */
public final class GraphModel implements GraphStore {

    private final Map<Long, Long> owners = new HashMap<>();
    private final TreeMap<Version, GraphCommand> log = new TreeMap<>();
    private State state;

    /** Materialized by replay. */
    private static final class State {
        final Map<Long, Map<Long, Long>> explicitFollowing = new HashMap<>(); // A -> (B -> since)
        final Map<Long, Map<Long, Long>> boardsFollowed = new HashMap<>();    // A -> (X -> since)
        final Map<Long, Set<Long>> exceptions = new HashMap<>();              // A -> boards unfollowed
        final Map<Long, Long> created = new HashMap<>();                      // X -> earliest creation
        final Map<Long, Long> createdOwner = new HashMap<>();                 // X -> owner (created boards)
        final Map<Long, Map<Long, Long>> interests = new HashMap<>();         // A -> (interest -> since)
    }

    @Override
    public synchronized void apply(GraphCommand command) {
        if (command instanceof CreateBoard c) claim(c.boardId(), c.ownerId());
        if (command instanceof FollowBoard c) claim(c.boardId(), c.boardOwnerId());
        if (command instanceof UnfollowBoard c) claim(c.boardId(), c.boardOwnerId());
        if (log.putIfAbsent(command.version(), command) == null) state = null;
    }

    private void claim(long board, long owner) {
        Long known = owners.putIfAbsent(board, owner);
        if (known != null && known != owner) {
            throw new InvalidCommandException("board " + board + " belongs to " + known + ", not " + owner);
        }
    }

    private State state() {
        if (state != null) return state;
        State s = new State();
        for (GraphCommand c : log.values()) {
            if (c instanceof FollowUser f) {
                s.explicitFollowing.computeIfAbsent(f.followerId(), k -> new HashMap<>()).put(f.followeeId(), f.occurredAt());
                exceptionsOf(s, f.followerId()).removeIf(x -> owners.get(x).equals(f.followeeId()));
            } else if (c instanceof UnfollowUser u) {
                s.explicitFollowing.getOrDefault(u.followerId(), new HashMap<>()).remove(u.followeeId());
                exceptionsOf(s, u.followerId()).removeIf(x -> owners.get(x).equals(u.followeeId()));
            } else if (c instanceof FollowBoard f) {
                s.boardsFollowed.computeIfAbsent(f.followerId(), k -> new HashMap<>()).put(f.boardId(), f.occurredAt());
                exceptionsOf(s, f.followerId()).remove(f.boardId());
            } else if (c instanceof UnfollowBoard u) {
                s.boardsFollowed.getOrDefault(u.followerId(), new HashMap<>()).remove(u.boardId());
                if (s.explicitFollowing.getOrDefault(u.followerId(), Map.of()).containsKey(u.boardOwnerId())) {
                    exceptionsOf(s, u.followerId()).add(u.boardId());
                }
            } else if (c instanceof GraphCommand.FollowInterest f) {
                s.interests.computeIfAbsent(f.followerId(), k -> new HashMap<>()).put(f.interestId(), f.occurredAt());
            } else if (c instanceof GraphCommand.UnfollowInterest u) {
                s.interests.getOrDefault(u.followerId(), new HashMap<>()).remove(u.interestId());
            } else if (c instanceof CreateBoard b) {
                s.created.merge(b.boardId(), b.occurredAt(), Math::min);
                s.createdOwner.put(b.boardId(), b.ownerId());
            }
        }
        state = s;
        return s;
    }

    private static Set<Long> exceptionsOf(State s, long user) {
        return s.exceptions.computeIfAbsent(user, k -> new HashSet<>());
    }

    // ---------------------------------------------------------------- derived relations

    private Map<Long, Long> explicitFollowing(long a) {
        return state().explicitFollowing.getOrDefault(a, Map.of());
    }

    private Map<Long, Long> boardsFollowed(long a) {
        return state().boardsFollowed.getOrDefault(a, Map.of());
    }

    /** Owners A follows only through boards, with the earliest such board follow. */
    private Map<Long, Long> implicitFollowing(long a) {
        Map<Long, Long> out = new HashMap<>();
        for (Map.Entry<Long, Long> e : boardsFollowed(a).entrySet()) {
            long owner = owners.get(e.getKey());
            if (!explicitFollowing(a).containsKey(owner)) out.merge(owner, e.getValue(), Math::min);
        }
        return out;
    }

    private Set<Long> users() {
        Set<Long> all = new HashSet<>(state().explicitFollowing.keySet());
        all.addAll(state().boardsFollowed.keySet());
        return all;
    }

    private synchronized boolean follows(long a, long board) {
        if (boardsFollowed(a).containsKey(board)) return true;
        Long owner = owners.get(board);
        return owner != null && explicitFollowing(a).containsKey(owner)
                && !state().exceptions.getOrDefault(a, Set.of()).contains(board);
    }

    // ---------------------------------------------------------------- queries

    @Override
    public synchronized UserRelation relation(long followerId, long userId) {
        if (explicitFollowing(followerId).containsKey(userId)) return UserRelation.EXPLICIT;
        return implicitFollowing(followerId).containsKey(userId) ? UserRelation.IMPLICIT : UserRelation.NONE;
    }

    @Override
    public synchronized boolean followsBoard(long userId, long boardId) {
        return follows(userId, boardId);
    }

    @Override
    public synchronized Set<Long> followedAmong(long userId, Collection<Long> candidates) {
        Cursors.checkBatch(candidates);
        Set<Long> out = new HashSet<>();
        for (long c : candidates) if (relation(userId, c).following()) out.add(c);
        return out;
    }

    @Override
    public synchronized Set<Long> followedBoardsAmong(long userId, Collection<Long> boardIds) {
        Cursors.checkBatch(boardIds);
        Set<Long> out = new HashSet<>();
        for (long b : boardIds) if (follows(userId, b)) out.add(b);
        return out;
    }

    @Override
    public synchronized Counts counts(long userId) {
        return new Counts(explicitFollowers(userId).size(), implicitFollowers(userId).size(),
                explicitFollowing(userId).size(), implicitFollowing(userId).size(), boardsFollowed(userId).size());
    }

    private Map<Long, Long> explicitFollowers(long user) {
        Map<Long, Long> out = new HashMap<>();
        for (long a : users()) {
            Long since = explicitFollowing(a).get(user);
            if (since != null) out.put(a, since);
        }
        return out;
    }

    private Map<Long, Long> implicitFollowers(long user) {
        Map<Long, Long> out = new HashMap<>();
        for (long a : users()) {
            Long since = implicitFollowing(a).get(user);
            if (since != null) out.put(a, since);
        }
        return out;
    }

    @Override
    public synchronized Page<Edge> followers(long userId, String cursor, int limit) {
        List<Edge> all = new ArrayList<>();
        explicitFollowers(userId).forEach((id, since) -> all.add(new Edge(id, since, true)));
        implicitFollowers(userId).forEach((id, since) -> all.add(new Edge(id, since, false)));
        return newestFirst(all, cursor, limit);
    }

    @Override
    public synchronized Page<Edge> followingUsers(long userId, String cursor, int limit) {
        List<Edge> all = new ArrayList<>();
        explicitFollowing(userId).forEach((id, since) -> all.add(new Edge(id, since, true)));
        implicitFollowing(userId).forEach((id, since) -> all.add(new Edge(id, since, false)));
        return newestFirst(all, cursor, limit);
    }

    @Override
    public synchronized Page<Edge> followingBoards(long userId, String cursor, int limit) {
        List<Edge> all = new ArrayList<>();
        boardsFollowed(userId).forEach((id, since) -> all.add(new Edge(id, since, true)));
        return newestFirst(all, cursor, limit);
    }

    @Override
    public synchronized boolean followsInterest(long userId, long interestId) {
        return state().interests.getOrDefault(userId, Map.of()).containsKey(interestId);
    }

    @Override
    public synchronized Page<Edge> followingInterests(long userId, String cursor, int limit) {
        List<Edge> all = new ArrayList<>();
        state().interests.getOrDefault(userId, Map.of()).forEach((id, since) -> all.add(new Edge(id, since, true)));
        return newestFirst(all, cursor, limit);
    }

    @Override
    public synchronized long followingInterestsCount(long userId) {
        return state().interests.getOrDefault(userId, Map.of()).size();
    }

    @Override
    public synchronized Page<Edge> interestFollowers(long interestId, String cursor, int limit) {
        List<Edge> all = new ArrayList<>();
        state().interests.forEach((user, followed) -> {
            Long since = followed.get(interestId);
            if (since != null) all.add(new Edge(user, since, true));
        });
        return newestFirst(all, cursor, limit);
    }

    @Override
    public synchronized long interestFollowerCount(long interestId) {
        return state().interests.values().stream().filter(m -> m.containsKey(interestId)).count();
    }

    @Override
    public synchronized Page<Edge> boardsOf(long ownerId, String cursor, int limit) {
        List<Edge> all = new ArrayList<>();
        state().created.forEach((board, at) -> {
            if (state().createdOwner.get(board).equals(ownerId)) all.add(new Edge(board, at, true));
        });
        return newestFirst(all, cursor, limit);
    }

    @Override
    public synchronized long boardsOwnedCount(long ownerId) {
        return state().created.keySet().stream().filter(board -> state().createdOwner.get(board).equals(ownerId)).count();
    }

    @Override
    public synchronized OptionalLong boardOwner(long boardId) {
        Long o = owners.get(boardId);
        return o == null ? OptionalLong.empty() : OptionalLong.of(o);
    }

    /** Receivers in ascending id order; the cursor is the last id returned. */
    @Override
    public synchronized Page<Receiver> receivers(long boardId, String cursor, int limit) {
        Cursors.checkLimit(limit);
        Cursors.AfterId position = Cursors.AfterId.decode(cursor);
        long after = position == null ? Long.MIN_VALUE : position.id();
        TreeSet<Long> receivers = new TreeSet<>(receivers(boardId));
        Long owner = owners.get(boardId);
        List<Receiver> page = new ArrayList<>();
        for (long r : receivers.tailSet(after, false)) {
            if (page.size() == limit) return new Page<>(page, new Cursors.AfterId(page.get(page.size() - 1).userId()).encode());
            // He follows the board; through its owner when he follows the owner explicitly (no exception, or he would not).
            page.add(new Receiver(r, owner != null && relation(r, owner) == UserRelation.EXPLICIT));
        }
        return new Page<>(page, null);
    }

    private Set<Long> receivers(long boardId) {
        Set<Long> out = new LinkedHashSet<>();
        Set<Long> candidates = new HashSet<>(users());
        for (long a : candidates) if (follows(a, boardId)) out.add(a);
        return out;
    }

    @Override
    public synchronized Set<Long> interestFollowersAmong(long interestId, Collection<Long> users) {
        Cursors.checkBatch(users);
        Set<Long> out = new HashSet<>();
        for (long u : users) if (state().interests.getOrDefault(u, Map.of()).containsKey(interestId)) out.add(u);
        return out;
    }

    @Override
    public synchronized Set<Long> boardReceiversAmong(long boardId, Collection<Long> users) {
        Cursors.checkBatch(users);
        Set<Long> all = receivers(boardId);
        Set<Long> out = new HashSet<>();
        for (long u : users) if (all.contains(u)) out.add(u);
        return out;
    }

    @Override
    public synchronized long boardFollowerCount(long boardId) {
        return receivers(boardId).size();
    }

    // ---------------------------------------------------------------- helpers

    private static final Comparator<Edge> NEWEST_FIRST =
            Comparator.comparingLong(Edge::since).thenComparingLong(Edge::id).reversed();

    private static Page<Edge> newestFirst(List<Edge> all, String cursor, int limit) {
        Cursors.checkLimit(limit);
        Cursors.After after = Cursors.After.decode(cursor);
        all.sort(NEWEST_FIRST);
        List<Edge> page = new ArrayList<>();
        for (Edge e : all) {
            if (after != null && !after.precedes(e.since(), e.id())) continue;
            if (page.size() == limit) {
                Edge last = page.get(limit - 1);
                return new Page<>(page, new Cursors.After(last.since(), last.id()).encode());
            }
            page.add(e);
        }
        return new Page<>(page, null);
    }
}
