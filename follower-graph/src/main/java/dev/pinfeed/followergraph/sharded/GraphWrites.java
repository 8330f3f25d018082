package dev.pinfeed.followergraph.sharded;

import static dev.pinfeed.followergraph.sharded.GraphShards.shard;
import static dev.pinfeed.followergraph.sharded.GraphShards.str;

import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphCommand.CreateBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowInterest;
import dev.pinfeed.followergraph.GraphCommand.UnfollowInterest;
import dev.pinfeed.followergraph.GraphCommand.FollowUser;
import dev.pinfeed.followergraph.GraphCommand.UnfollowBoard;
import dev.pinfeed.followergraph.GraphCommand.UnfollowUser;
import dev.pinfeed.followergraph.InvalidCommandException;
import dev.pinfeed.followergraph.sharded.GraphBackend.CasRequest;
import dev.pinfeed.followergraph.sharded.GraphBackend.Guard;
import dev.pinfeed.followergraph.sharded.GraphBackend.Mutation;
import dev.pinfeed.followergraph.sharded.GraphBackend.Op;
import dev.pinfeed.followergraph.sharded.GraphBackend.PairRead;
import dev.pinfeed.followergraph.sharded.GraphBackend.PairReset;
import dev.pinfeed.followergraph.sharded.GraphBackend.PairResetRequest;
import dev.pinfeed.followergraph.sharded.GraphKeyspace.PairRepair;
import dev.pinfeed.followergraph.sharded.PairRules.BoardEdge;
import dev.pinfeed.followergraph.sharded.PairRules.PairState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The write protocol. For an edge command of follower A on owner O (the user followed, or the board's owner):
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
 *
 * <p>A repair ({@link #repair}) runs the same steps 3 and 4 after its own step 2: fix the registers that
 * still hold what the audit read, and move the sequence above every sequence either side has applied. So
 * a repaired pair is recomputed from its registers on both sides, like a newer event, and a live write
 * racing it is ordered by the sequence like any two writers.
 */
final class GraphWrites {

    private final GraphBackend backend;
    private final GraphKeys keys;

    GraphWrites(GraphShards shards) {
        this.backend = shards.backend;
        this.keys = shards.keys;
    }

    void apply(GraphCommand command) {
        if (command instanceof CreateBoard b) {
            claim(b.boardId(), b.ownerId());
            // ZADD LT: duplicates keep the earliest creation time, whatever their order.
            backend.apply(shard(b.ownerId()), null,
                    List.of(new Mutation(Op.ZADD_LT, keys.boardsOwned(b.ownerId()), str(b.boardId()), str(b.occurredAt()))));
            return;
        }
        if (command instanceof FollowInterest f) {
            interestEdge(f, f.followerId(), f.interestId(), true);
            return;
        }
        if (command instanceof UnfollowInterest u) {
            interestEdge(u, u.followerId(), u.interestId(), false);
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
        PairState state = derive(read);

        backend.apply(shard(follower), new Guard(keys.pairVersions(follower), GraphKeys.appliedSeqField(owner), read.seq()),
                followerSide(follower, owner, state));
        backend.apply(shard(owner), new Guard(keys.followeeVersions(owner), str(follower), read.seq()),
                followeeSide(follower, owner, state));
    }

    /**
     * An interest edge, by the same protocol as a user edge: last writer wins on the register (U's shard), the sequence bumped when it
     * changed; then U's interests-followed set and the interest's followers set (the interest's shard) written from the winning
     * register, each guarded by that sequence, so a replay or a stale writer never undoes a newer state.
     */
    private void interestEdge(GraphCommand command, long follower, long interest, boolean follow) {
        String registers = keys.interestRegisters(follower);
        PairRead read = backend.casRegister(shard(follower), new CasRequest(registers, str(interest),
                new Register(follow, command.version()).encode(), registers, str(interest), registers,
                keys.interestSequences(follower), GraphKeys.registerSeqField(interest)));
        Register winner = Register.decode(read.userRegister());
        Long at = winner != null && winner.follow() ? winner.at() : null;
        List<Mutation> mine = new ArrayList<>();
        zset(mine, keys.interestsFollowed(follower), interest, at);
        List<Mutation> theirs = new ArrayList<>();
        zset(theirs, keys.interestFollowers(interest), follower, at);
        backend.apply(shard(follower), new Guard(keys.interestSequences(follower), GraphKeys.appliedSeqField(interest), read.seq()), mine);
        backend.apply(shard(interest), new Guard(keys.interestFollowerSequences(interest), str(follower), read.seq()), theirs);
    }

    private static PairState derive(PairRead read) {
        Map<Long, Register> boards = new TreeMap<>();
        read.boardRegisters().forEach((b, r) -> boards.put(Long.parseLong(b), Register.decode(r)));
        return PairRules.derive(Register.decode(read.userRegister()), boards);
    }

    /**
     * Repairs one pair: its register fixes (each only if the field still holds what the audit read), a
     * sequence above {@code floor} and both stored ones, then both sides recomputed from the registers
     * as they are now, guarded by that sequence. Boards in {@code strayBoards} without a register lose
     * their entries of the pair (entries no register explains).
     */
    GraphKeyspace.PairRepaired repair(PairRepair r) {
        long follower = r.follower();
        long owner = r.owner();
        String userRegisters = keys.userRegisters(follower);
        PairReset reset = backend.resetPair(shard(follower), new PairResetRequest(userRegisters, str(owner),
                keys.boardRegisters(follower, owner), keys.pairVersions(follower), GraphKeys.registerSeqField(owner),
                GraphKeys.appliedSeqField(owner), r.floor(), r.fixes()));
        long seq = reset.read().seq();
        PairState state = derive(reset.read());
        List<Mutation> mine = followerSide(follower, owner, state);
        List<Mutation> theirs = followeeSide(follower, owner, state);
        for (long board : strays(r.strayBoards(), state)) {
            mine.add(new Mutation(Op.ZREM, keys.boardsFollowed(follower), str(board), null));
            mine.add(new Mutation(Op.SREM, keys.boardsUnfollowed(follower), str(board), null));
            theirs.add(new Mutation(Op.HDEL, keys.boardFollowers(owner, board), str(follower), null));
            theirs.add(new Mutation(Op.SREM, keys.boardUnfollowers(owner, board), str(follower), null));
        }
        boolean followerSide = backend.apply(shard(follower), new Guard(keys.pairVersions(follower), GraphKeys.appliedSeqField(owner), seq), mine);
        boolean followeeSide = backend.apply(shard(owner), new Guard(keys.followeeVersions(owner), str(follower), seq), theirs);
        return new GraphKeyspace.PairRepaired(seq, reset.skipped(), followerSide, followeeSide);
    }

    private static List<Long> strays(Set<Long> boards, PairState state) {
        return boards.stream().filter(b -> !state.boards().containsKey(b)).sorted().toList();
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
}
