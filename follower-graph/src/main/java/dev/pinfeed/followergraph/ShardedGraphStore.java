package dev.pinfeed.followergraph;

import dev.pinfeed.followergraph.GraphBackend.CasRequest;
import dev.pinfeed.followergraph.GraphBackend.Guard;
import dev.pinfeed.followergraph.GraphBackend.Mutation;
import dev.pinfeed.followergraph.GraphBackend.Op;
import dev.pinfeed.followergraph.GraphBackend.PairRead;
import dev.pinfeed.followergraph.GraphBackend.Reads;
import dev.pinfeed.followergraph.GraphBackend.ScanBatch;
import dev.pinfeed.followergraph.GraphBackend.Scored;
import dev.pinfeed.followergraph.GraphCommand.CreateBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowUser;
import dev.pinfeed.followergraph.GraphCommand.UnfollowBoard;
import dev.pinfeed.followergraph.GraphCommand.UnfollowUser;
import dev.pinfeed.followergraph.PairRules.BoardEdge;
import dev.pinfeed.followergraph.PairRules.PairState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The follower graph over a {@link GraphBackend}: the write protocol and every query algorithm, shared
 * by {@link RedisGraphStore} and {@link InMemoryGraphStore} so the fast unit tests exercise the same
 * code that runs against Redis.
 *
 * <p>Write protocol for an edge command of follower A on owner O (the user followed, or the board's owner):
 * <ol>
 *   <li>claim the board's owner (board commands): a conflicting owner rejects the command untouched;</li>
 *   <li>on A's shard, atomically: last-writer-wins on the edge register, bump the pair's sequence if it
 *       changed, read back all of the pair's registers and its sequence;</li>
 *   <li>derive the pair's state ({@link PairRules}) and write it on A's shard (following sets), guarded
 *       by the sequence so a stale writer never overwrites a newer state;</li>
 *   <li>write it on O's shard (followers sets, board hash/set), guarded the same way.</li>
 * </ol>
 * Steps 3 and 4 always run, even when step 2 changed nothing, so replaying an event after a crash
 * between steps completes the half-written edge. Each side converges to the state of the highest
 * sequence, which is the state of the newest registers.
 */
public abstract class ShardedGraphStore implements GraphStore {

    private static final Comparator<Edge> NEWEST_FIRST =
            Comparator.comparingLong(Edge::since).thenComparingLong(Edge::id).reversed();

    private final GraphBackend backend;
    private final GraphKeys keys;

    ShardedGraphStore(GraphBackend backend, GraphKeys keys) {
        this.backend = backend;
        this.keys = keys;
    }

    public GraphKeys keys() {
        return keys;
    }

    private static int shard(long id) {
        return VirtualShards.of(id);
    }

    private String instance(long id) {
        return backend.instanceOf(shard(id));
    }

    private static String str(long v) {
        return Long.toString(v);
    }

    // ---------------------------------------------------------------- writes

    @Override
    public void apply(GraphCommand command) {
        if (command instanceof CreateBoard b) {
            claim(b.boardId(), b.ownerId());
            // ZADD LT: duplicates keep the earliest creation time, whatever their order.
            backend.apply(shard(b.ownerId()), null,
                    List.of(new Mutation(Op.ZADD_LT, keys.boardsOwned(b.ownerId()), str(b.boardId()), str(b.occurredAt()))));
            return;
        }
        long follower;
        long owner;
        Long board = null;
        boolean follow;
        if (command instanceof FollowUser f) {
            follower = f.followerId();
            owner = f.followeeId();
            follow = true;
        } else if (command instanceof UnfollowUser u) {
            follower = u.followerId();
            owner = u.followeeId();
            follow = false;
        } else if (command instanceof FollowBoard f) {
            follower = f.followerId();
            owner = f.boardOwnerId();
            board = f.boardId();
            follow = true;
        } else if (command instanceof UnfollowBoard u) {
            follower = u.followerId();
            owner = u.boardOwnerId();
            board = u.boardId();
            follow = false;
        } else {
            throw new IllegalArgumentException("unknown command " + command);
        }
        if (board != null) claim(board, owner);

        String userRegisters = keys.userRegisters(follower);
        String boardRegisters = keys.boardRegisters(follower, owner);
        PairRead read = backend.casRegister(shard(follower), new CasRequest(
                board == null ? userRegisters : boardRegisters, str(board == null ? owner : board),
                new Register(follow, command.version()).encode(),
                userRegisters, str(owner), boardRegisters, keys.pairVersions(follower), GraphKeys.registerSeqField(owner)));
        Map<Long, Register> boards = new TreeMap<>();
        read.boardRegisters().forEach((b, r) -> boards.put(Long.parseLong(b), Register.decode(r)));
        PairState state = PairRules.derive(Register.decode(read.userRegister()), boards);

        backend.apply(shard(follower), new Guard(keys.pairVersions(follower), GraphKeys.appliedSeqField(owner), read.seq()),
                followerSide(follower, owner, state));
        backend.apply(shard(owner), new Guard(keys.followeeVersions(owner), str(follower), read.seq()),
                followeeSide(follower, owner, state));
    }

    private void claim(long board, long owner) {
        long known = backend.claimOwner(shard(board), keys.boardOwners(board), board, owner);
        if (known != owner) throw new InvalidCommandException("board " + board + " belongs to " + known + ", not " + owner);
    }

    private List<Mutation> followerSide(long a, long o, PairState s) {
        List<Mutation> m = new ArrayList<>();
        zset(m, keys.followingExplicit(a), o, s.explicitAt());
        zset(m, keys.followingImplicit(a), o, s.implicitAt());
        for (Map.Entry<Long, BoardEdge> e : s.boards().entrySet()) {
            zset(m, keys.boardsFollowed(a), e.getKey(), e.getValue().followedAt());
            m.add(new Mutation(e.getValue().exception() ? Op.SADD : Op.SREM, keys.boardsUnfollowed(a), str(e.getKey()), null));
        }
        return m;
    }

    private List<Mutation> followeeSide(long a, long o, PairState s) {
        List<Mutation> m = new ArrayList<>();
        zset(m, keys.followersExplicit(o), a, s.explicitAt());
        zset(m, keys.followersImplicit(o), a, s.implicitAt());
        for (Map.Entry<Long, BoardEdge> e : s.boards().entrySet()) {
            Long at = e.getValue().followedAt();
            m.add(at == null ? new Mutation(Op.HDEL, keys.boardFollowers(o, e.getKey()), str(a), null)
                    : new Mutation(Op.HSET, keys.boardFollowers(o, e.getKey()), str(a), str(at)));
            m.add(new Mutation(e.getValue().exception() ? Op.SADD : Op.SREM, keys.boardUnfollowers(o, e.getKey()), str(a), null));
        }
        return m;
    }

    private static void zset(List<Mutation> m, String key, long member, Long score) {
        m.add(score == null ? new Mutation(Op.ZREM, key, str(member), null) : new Mutation(Op.ZADD, key, str(member), str(score)));
    }

    // ---------------------------------------------------------------- point and batch queries

    @Override
    public UserRelation relation(long followerId, long userId) {
        Reads r = backend.reads(instance(followerId));
        Supplier<Long> explicit = r.zscore(keys.followingExplicit(followerId), str(userId));
        Supplier<Long> implicit = r.zscore(keys.followingImplicit(followerId), str(userId));
        r.execute();
        if (explicit.get() != null) return UserRelation.EXPLICIT;
        return implicit.get() != null ? UserRelation.IMPLICIT : UserRelation.NONE;
    }

    @Override
    public boolean followsBoard(long userId, long boardId) {
        return followedBoardsAmong(userId, List.of(boardId)).contains(boardId);
    }

    /** One round trip: both following sets live on the user's shard. */
    @Override
    public Set<Long> followedAmong(long userId, Collection<Long> candidates) {
        Cursors.checkBatch(candidates);
        List<String> ids = distinct(candidates);
        if (ids.isEmpty()) return Set.of();
        Reads r = backend.reads(instance(userId));
        Supplier<List<Long>> explicit = r.zmscore(keys.followingExplicit(userId), ids);
        Supplier<List<Long>> implicit = r.zmscore(keys.followingImplicit(userId), ids);
        r.execute();
        Set<Long> out = new HashSet<>();
        for (int i = 0; i < ids.size(); i++) {
            if (explicit.get().get(i) != null || implicit.get().get(i) != null) out.add(Long.parseLong(ids.get(i)));
        }
        return out;
    }

    /** One round trip per instance holding owner buckets of the boards, then one to the user's instance. */
    @Override
    public Set<Long> followedBoardsAmong(long userId, Collection<Long> boardIds) {
        Cursors.checkBatch(boardIds);
        List<String> boards = distinct(boardIds);
        if (boards.isEmpty()) return Set.of();
        Map<String, Long> owners = owners(boards);
        List<String> ownerIds = owners.values().stream().distinct().map(ShardedGraphStore::str).toList();

        Reads r = backend.reads(instance(userId));
        Supplier<List<Long>> followed = r.zmscore(keys.boardsFollowed(userId), boards);
        Supplier<List<Boolean>> unfollowed = r.smismember(keys.boardsUnfollowed(userId), boards);
        Supplier<List<Long>> ownerFollowed = ownerIds.isEmpty() ? List::of : r.zmscore(keys.followingExplicit(userId), ownerIds);
        r.execute();
        Set<Long> explicitOwners = new HashSet<>();
        for (int i = 0; i < ownerIds.size(); i++) {
            if (ownerFollowed.get().get(i) != null) explicitOwners.add(Long.parseLong(ownerIds.get(i)));
        }
        Set<Long> out = new HashSet<>();
        for (int i = 0; i < boards.size(); i++) {
            Long owner = owners.get(boards.get(i));
            boolean viaOwner = owner != null && explicitOwners.contains(owner) && !unfollowed.get().get(i);
            if (followed.get().get(i) != null || viaOwner) out.add(Long.parseLong(boards.get(i)));
        }
        return out;
    }

    /** Owners of the boards that have one: one pipeline per instance, one HMGET per owner bucket. */
    private Map<String, Long> owners(List<String> boards) {
        Map<String, Map<String, List<String>>> byInstanceAndKey = new LinkedHashMap<>();
        for (String b : boards) {
            long board = Long.parseLong(b);
            byInstanceAndKey.computeIfAbsent(instance(board), k -> new LinkedHashMap<>())
                    .computeIfAbsent(keys.boardOwners(board), k -> new ArrayList<>()).add(b);
        }
        Map<String, Long> out = new HashMap<>();
        for (Map.Entry<String, Map<String, List<String>>> inst : byInstanceAndKey.entrySet()) {
            Reads r = backend.reads(inst.getKey());
            Map<List<String>, Supplier<List<String>>> replies = new LinkedHashMap<>();
            inst.getValue().forEach((key, fields) -> replies.put(fields, r.hmget(key, fields)));
            r.execute();
            replies.forEach((fields, reply) -> {
                for (int i = 0; i < fields.size(); i++) {
                    String owner = reply.get().get(i);
                    if (owner != null) out.put(fields.get(i), Long.parseLong(owner));
                }
            });
        }
        return out;
    }

    @Override
    public long boardsOwnedCount(long ownerId) {
        Reads r = backend.reads(instance(ownerId));
        Supplier<Long> owned = r.zcard(keys.boardsOwned(ownerId));
        r.execute();
        return owned.get();
    }

    @Override
    public OptionalLong boardOwner(long boardId) {
        Long owner = owners(List.of(str(boardId))).get(str(boardId));
        return owner == null ? OptionalLong.empty() : OptionalLong.of(owner);
    }

    @Override
    public Counts counts(long userId) {
        Reads r = backend.reads(instance(userId));
        Supplier<Long> re = r.zcard(keys.followersExplicit(userId));
        Supplier<Long> ri = r.zcard(keys.followersImplicit(userId));
        Supplier<Long> fe = r.zcard(keys.followingExplicit(userId));
        Supplier<Long> fi = r.zcard(keys.followingImplicit(userId));
        Supplier<Long> bf = r.zcard(keys.boardsFollowed(userId));
        r.execute();
        return new Counts(re.get(), ri.get(), fe.get(), fi.get(), bf.get());
    }

    // ---------------------------------------------------------------- newest-first lists

    private record Source(String key, boolean explicit) {}

    @Override
    public Page<Edge> followers(long userId, String cursor, int limit) {
        return newestFirst(userId, List.of(new Source(keys.followersExplicit(userId), true),
                new Source(keys.followersImplicit(userId), false)), cursor, limit);
    }

    @Override
    public Page<Edge> followingUsers(long userId, String cursor, int limit) {
        return newestFirst(userId, List.of(new Source(keys.followingExplicit(userId), true),
                new Source(keys.followingImplicit(userId), false)), cursor, limit);
    }

    @Override
    public Page<Edge> followingBoards(long userId, String cursor, int limit) {
        return newestFirst(userId, List.of(new Source(keys.boardsFollowed(userId), true)), cursor, limit);
    }

    @Override
    public Page<Edge> boardsOf(long ownerId, String cursor, int limit) {
        return newestFirst(ownerId, List.of(new Source(keys.boardsOwned(ownerId), true)), cursor, limit);
    }

    private Page<Edge> newestFirst(long user, List<Source> sources, String cursor, int limit) {
        Cursors.checkLimit(limit);
        List<Edge> next = after(instance(user), sources, Cursors.After.decode(cursor), limit + 1);
        if (next.size() <= limit) return new Page<>(next, null);
        List<Edge> page = next.subList(0, limit);
        Edge last = page.get(limit - 1);
        return new Page<>(page, new Cursors.After(last.since(), last.id()).encode());
    }

    /**
     * At least the first {@code want} edges after {@code after} of the merged sources, in (since desc,
     * id desc) order. Redis orders equal scores by member string, not by number, so an equal-score
     * group is always read whole: the cursor's own group, and a group the LIMIT may have cut.
     */
    private List<Edge> after(String instance, List<Source> sources, Cursors.After after, int want) {
        Reads r = backend.reads(instance);
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
                if (groups == null) groups = backend.reads(instance);
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

    // ---------------------------------------------------------------- receivers (fan-out)

    /**
     * Two phases, both on the owner's instance: the owner's explicit followers newest first, minus the
     * board's unfollowers; then the board's explicit-follower hash by HSCAN, minus those already
     * returned as explicit followers of the owner.
     */
    @Override
    public Page<Long> boardReceivers(long boardId, String cursor, int limit) {
        Cursors.checkLimit(limit);
        Long owner = owners(List.of(str(boardId))).get(str(boardId));
        if (owner == null) return new Page<>(List.of(), null);
        String instance = instance(owner);
        String position = cursor == null ? "e" : Cursors.decode(cursor);
        List<Long> page = new ArrayList<>();
        if (position.startsWith("e")) {
            Cursors.After after = position.equals("e") ? null : Cursors.After.parse(position.substring(2));
            Edge lastKept = null;
            while (true) {
                List<Edge> batch = after(instance, List.of(new Source(keys.followersExplicit(owner), true)), after, limit + 1);
                if (batch.isEmpty()) break;
                Reads r = backend.reads(instance);
                Supplier<List<Boolean>> excluded = r.smismember(keys.boardUnfollowers(owner, boardId),
                        batch.stream().map(e -> str(e.id())).toList());
                r.execute();
                for (int i = 0; i < batch.size(); i++) {
                    if (excluded.get().get(i)) continue;
                    if (page.size() == limit) {
                        return new Page<>(page, Cursors.encode("e|" + lastKept.since() + "|" + lastKept.id()));
                    }
                    page.add(batch.get(i).id());
                    lastKept = batch.get(i);
                }
                Edge tail = batch.get(batch.size() - 1);
                after = new Cursors.After(tail.since(), tail.id());
                if (batch.size() < limit + 1) break;
            }
            position = "h|0";
        }
        if (!position.startsWith("h|")) throw new IllegalArgumentException("invalid cursor: " + cursor);
        String scan = position.substring(2); // "0": phase 2 not started yet
        if (page.size() >= limit) return new Page<>(page, Cursors.encode("h|" + scan));
        do {
            Reads r = backend.reads(instance);
            Supplier<ScanBatch> step = r.hscan(keys.boardFollowers(owner, boardId), scan, limit - page.size());
            r.execute();
            List<String> fields = step.get().fields();
            scan = step.get().cursor();
            if (fields.isEmpty()) continue;
            Reads check = backend.reads(instance);
            Supplier<List<Long>> explicit = check.zmscore(keys.followersExplicit(owner), fields);
            check.execute();
            for (int i = 0; i < fields.size(); i++) {
                if (explicit.get().get(i) == null) page.add(Long.parseLong(fields.get(i)));
            }
        } while (!scan.equals("0") && page.size() < limit);
        return new Page<>(page, scan.equals("0") ? null : Cursors.encode("h|" + scan));
    }

    @Override
    public long boardFollowerCount(long boardId) {
        Long owner = owners(List.of(str(boardId))).get(str(boardId));
        if (owner == null) return 0;
        String instance = instance(owner);
        Reads r = backend.reads(instance);
        Supplier<Long> explicitFollowers = r.zcard(keys.followersExplicit(owner));
        Supplier<Long> unfollowers = r.scard(keys.boardUnfollowers(owner, boardId));
        r.execute();
        long count = explicitFollowers.get() - unfollowers.get();
        String scan = "0";
        do {
            Reads s = backend.reads(instance);
            Supplier<ScanBatch> step = s.hscan(keys.boardFollowers(owner, boardId), scan, 1000);
            s.execute();
            scan = step.get().cursor();
            List<String> fields = step.get().fields();
            if (fields.isEmpty()) continue;
            Reads check = backend.reads(instance);
            Supplier<List<Long>> explicit = check.zmscore(keys.followersExplicit(owner), fields);
            check.execute();
            count += explicit.get().stream().filter(x -> x == null).count();
        } while (!scan.equals("0"));
        return count;
    }

    private static List<String> distinct(Collection<Long> ids) {
        return ids.stream().distinct().map(ShardedGraphStore::str).toList();
    }

    @Override
    public void close() {
        backend.close();
    }
}
