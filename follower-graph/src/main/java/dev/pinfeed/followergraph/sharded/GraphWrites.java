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
import dev.pinfeed.followergraph.CommandOutcome;
import dev.pinfeed.followergraph.InvalidCommandException;
import dev.pinfeed.followergraph.sharded.GraphBackend.OwnerClaim;
import dev.pinfeed.followergraph.sharded.GraphBackend.ShardCas;
import dev.pinfeed.followergraph.sharded.GraphBackend.Write;
import dev.pinfeed.followergraph.sharded.InstancePipelines.Batches;
import dev.pinfeed.followergraph.sharded.GraphBackend.CasRequest;
import dev.pinfeed.followergraph.sharded.GraphBackend.FollowerSide;
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
 * sequence, which is the state of the newest registers. Steps 3 and 4 go to their instances in
 * parallel. A batch runs each step for all its commands at once ({@link #applyAll}). A user or interest edge whose pair
 * has no board registers (the usual follow) has step 3 done inside step 2's script: its follower side is one sorted set
 * derived from the register alone, written with the pair's sequence as its applied sequence, so the same guard orders it
 * against every other writer of that side.
 *
 * <p>A repair ({@link #repair}) runs the same steps 3 and 4 after its own step 2: fix the registers that
 * still hold what the audit read, and move the sequence above every sequence either side has applied. So
 * a repaired pair is recomputed from its registers on both sides, like a newer event, and a live write
 * racing it is ordered by the sequence like any two writers.
 */
final class GraphWrites {

    private final GraphBackend backend;
    private final GraphKeys keys;

    private final InstancePipelines pipelined = new InstancePipelines();

    GraphWrites(GraphShards shards) {
        this.backend = shards.backend;
        this.keys = shards.keys;
    }

    /** Stops the threads that run other instances' pipelines. */
    void close() {
        pipelined.close();
    }

    /** One command: {@link #applyAll} of one, its failure thrown. */
    void apply(GraphCommand command) {
        RuntimeException failure = applyAll(List.of(command)).get(0).failure();
        if (failure != null) throw failure;
    }

    /**
     * A batch of commands, in three phases, each one pipeline per Redis instance (instances in parallel),
     * each pipeline in command order:
     * <ol>
     *   <li>the board-owner claims of the board commands (a conflicting owner refuses that command untouched);</li>
     *   <li>the register compare-and-sets of the edge commands (user, board and interest edges), each
     *       reading back its pair's registers and sequence as of just after itself;</li>
     *   <li>both guarded sides of every edge command (and a board creation's entry), from its own read.</li>
     * </ol>
     * The same scripts, keys and guards as one command at a time, so the same proofs hold: per pair the
     * registers are last-writer-wins whatever the order, and each side ends in the state of the highest
     * sequence written to it, which is derived from the newest registers. Two commands of one pair in a
     * batch: the later compare-and-set reads a sequence at least the earlier's and the registers of both,
     * so whichever side write carries the higher sequence wins, as if applied one by one. An instance that
     * does not answer in a phase fails the commands with a write queued on it there (the others go on);
     * such a command may be half-written, which its retry completes as a replay does.
     */
    List<CommandOutcome> applyAll(List<GraphCommand> commands) {
        int n = commands.size();
        Step[] steps = new Step[n];
        RuntimeException[] failed = new RuntimeException[n];
        for (int i = 0; i < n; i++) steps[i] = Step.of(commands.get(i));

        Batches<OwnerClaim> claims = new Batches<>();
        for (int i = 0; i < n; i++) {
            Step s = steps[i];
            if (s.board() != null) {
                int shard = shard(s.board());
                claims.add(backend.instanceOf(shard), i, new OwnerClaim(shard, keys.boardOwners(s.board()), s.board(), s.owner()));
            }
        }
        pipelined.run(claims, backend::claimOwners, failed, (i, known) -> {
            Step s = steps[i];
            if (known != s.owner()) failed[i] = new InvalidCommandException("board " + s.board() + " belongs to " + known + ", not " + s.owner());
        });

        PairRead[] reads = new PairRead[n];
        Batches<ShardCas> registers = new Batches<>();
        for (int i = 0; i < n; i++) {
            Step s = steps[i];
            if (failed[i] != null || s.kind() == Kind.CREATE_BOARD) continue;
            int shard = shard(s.follower());
            registers.add(backend.instanceOf(shard), i, new ShardCas(shard, casRequest(s, commands.get(i))));
        }
        pipelined.run(registers, backend::casRegisters, failed, (i, read) -> reads[i] = read);

        Batches<Write> sides = new Batches<>();
        for (int i = 0; i < n; i++) {
            if (failed[i] != null) continue;
            Step s = steps[i];
            long a = s.follower();
            long o = s.owner();
            switch (s.kind()) {
                // ZADD LT: duplicates keep the earliest creation time, whatever their order.
                case CREATE_BOARD -> write(sides, i, o, null,
                        List.of(new Mutation(Op.ZADD_LT, keys.boardsOwned(o), str(s.board()), str(commands.get(i).occurredAt()))));
                case INTEREST -> {
                    Register winner = Register.decode(reads[i].userRegister());
                    Long at = winner != null && winner.follow() ? winner.at() : null;
                    List<Mutation> mine = new ArrayList<>();
                    zset(mine, keys.interestsFollowed(a), o, at);
                    List<Mutation> theirs = new ArrayList<>();
                    zset(theirs, keys.interestFollowers(o), a, at);
                    if (!reads[i].followerSideWritten()) {
                        write(sides, i, a, new Guard(keys.interestSequences(a), GraphKeys.appliedSeqField(o), reads[i].seq()), mine);
                    }
                    write(sides, i, o, new Guard(keys.interestFollowerSequences(o), str(a), reads[i].seq()), theirs);
                }
                case EDGE -> {
                    PairState state = derive(reads[i]);
                    // Board registers are never deleted: a pair with none was never followed implicitly, on either side.
                    boolean everImplicit = !state.boards().isEmpty();
                    if (!reads[i].followerSideWritten()) {
                        write(sides, i, a, new Guard(keys.pairVersions(a), GraphKeys.appliedSeqField(o), reads[i].seq()),
                                followerSide(a, o, state, everImplicit));
                    }
                    write(sides, i, o, new Guard(keys.followeeVersions(o), str(a), reads[i].seq()), followeeSide(a, o, state, everImplicit));
                }
            }
        }
        pipelined.run(sides, backend::applyAll, failed, (i, applied) -> {});

        List<CommandOutcome> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(new CommandOutcome(commands.get(i), failed[i]));
        return out;
    }

    private void write(Batches<Write> sides, int command, long id, Guard guard, List<Mutation> mutations) {
        int shard = shard(id);
        sides.add(backend.instanceOf(shard), command, new Write(shard, guard, mutations));
    }

    /**
     * Last writer wins on the command's register on the follower's shard, the pair's sequence bumped on a change. A user or
     * board edge's pair is (follower, owner): the user register and every board register of the owner's boards; an interest
     * edge's pair is (follower, interest), its register alone (no board registers: the user-register hash again).
     */
    private CasRequest casRequest(Step s, GraphCommand command) {
        String value = new Register(s.follow(), command.version()).encode();
        long a = s.follower();
        long o = s.owner();
        if (s.kind() == Kind.INTEREST) {
            String registers = keys.interestRegisters(a);
            return new CasRequest(registers, str(o), value, registers, str(o), registers, keys.interestSequences(a), GraphKeys.registerSeqField(o),
                    new FollowerSide(keys.interestsFollowed(a), str(o), GraphKeys.appliedSeqField(o)));
        }
        String userRegisters = keys.userRegisters(a);
        String boardRegisters = keys.boardRegisters(a, o);
        // A user edge's pair without board registers has one follower-side set, written with the register (one script less).
        FollowerSide side = s.board() == null ? new FollowerSide(keys.followingExplicit(a), str(o), GraphKeys.appliedSeqField(o)) : null;
        return new CasRequest(s.board() == null ? userRegisters : boardRegisters, str(s.board() == null ? o : s.board()), value,
                userRegisters, str(o), boardRegisters, keys.pairVersions(a), GraphKeys.registerSeqField(o), side);
    }

    private enum Kind { CREATE_BOARD, EDGE, INTEREST }

    /**
     * A command as the protocol sees it: a board creation (owner, board), a user or board edge of {@code follower} on
     * {@code owner} (the user followed, or the board's owner), or an interest edge ({@code owner} = the interest).
     */
    private record Step(Kind kind, long follower, long owner, Long board, boolean follow) {
        static Step of(GraphCommand command) {
            if (command instanceof CreateBoard b) return new Step(Kind.CREATE_BOARD, 0, b.ownerId(), b.boardId(), false);
            if (command instanceof FollowInterest f) return new Step(Kind.INTEREST, f.followerId(), f.interestId(), null, true);
            if (command instanceof UnfollowInterest u) return new Step(Kind.INTEREST, u.followerId(), u.interestId(), null, false);
            if (command instanceof FollowUser f) return new Step(Kind.EDGE, f.followerId(), f.followeeId(), null, true);
            if (command instanceof UnfollowUser u) return new Step(Kind.EDGE, u.followerId(), u.followeeId(), null, false);
            if (command instanceof FollowBoard f) return new Step(Kind.EDGE, f.followerId(), f.boardOwnerId(), f.boardId(), true);
            if (command instanceof UnfollowBoard u) return new Step(Kind.EDGE, u.followerId(), u.boardOwnerId(), u.boardId(), false);
            throw new IllegalArgumentException("unknown command " + command);
        }
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
        // A repair also removes implicit entries no board register explains.
        List<Mutation> mine = followerSide(follower, owner, state, true);
        List<Mutation> theirs = followeeSide(follower, owner, state, true);
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

    /** {@code everImplicit} false: the implicit set is known not to hold the owner, so he is not removed from it (one command less). */
    private List<Mutation> followerSide(long a, long o, PairState s, boolean everImplicit) {
        List<Mutation> m = new ArrayList<>();
        zset(m, keys.followingExplicit(a), o, s.explicitAt());
        if (everImplicit) zset(m, keys.followingImplicit(a), o, s.implicitAt());
        for (Map.Entry<Long, BoardEdge> e : s.boards().entrySet()) {
            zset(m, keys.boardsFollowed(a), e.getKey(), e.getValue().followedAt());
            m.add(new Mutation(e.getValue().exception() ? Op.SADD : Op.SREM, keys.boardsUnfollowed(a), str(e.getKey()), null));
        }
        return m;
    }

    private List<Mutation> followeeSide(long a, long o, PairState s, boolean everImplicit) {
        List<Mutation> m = new ArrayList<>();
        zset(m, keys.followersExplicit(o), a, s.explicitAt());
        if (everImplicit) zset(m, keys.followersImplicit(o), a, s.implicitAt());
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
