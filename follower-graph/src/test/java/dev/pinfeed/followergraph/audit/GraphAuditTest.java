package dev.pinfeed.followergraph.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.followergraph.GraphAssertions;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphCommand.CreateBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowUser;
import dev.pinfeed.followergraph.GraphCommand.UnfollowBoard;
import dev.pinfeed.followergraph.GraphCommand.UnfollowUser;
import dev.pinfeed.followergraph.GraphModel;
import dev.pinfeed.followergraph.GraphScenarios;
import dev.pinfeed.followergraph.GraphScenarios.Scenario;
import dev.pinfeed.followergraph.UserRelation;
import dev.pinfeed.followergraph.sharded.GraphBackend.KeyFix;
import dev.pinfeed.followergraph.sharded.GraphBackend.MemberFix;
import dev.pinfeed.followergraph.sharded.GraphKeys;
import dev.pinfeed.followergraph.sharded.GraphKeys.Kind;
import dev.pinfeed.followergraph.sharded.ShardedGraphStore;
import dev.pinfeed.redisshards.VirtualShards;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The audit over a live graph on two in-memory instances: clean when the live graph was built from the same
 * events in another order, every kind of damage named exactly, and a repair that leaves nothing to find and
 * every query answering as the reference model.
 */
class GraphAuditTest {

    private static final String PREFIX = "t:";
    private static final long T = GraphScenarios.T0;

    private final TwoInstances instances = new TwoInstances();
    private final ShardedGraphStore live = new ShardedGraphStore(instances, new GraphKeys(PREFIX)) {};
    private final GraphOracle oracle = new GraphOracle(PREFIX);
    private final GraphModel model = new GraphModel();
    private final GraphKeys keys = new GraphKeys(PREFIX);

    /** Users on each instance, and boards. */
    private final long a1 = userOn("a", 1), a2 = userOn("a", 2), b1 = userOn("b", 1), b2 = userOn("b", 2);
    private final long boardOfB1 = 9_001, boardOfA1 = 9_002;

    private static long userOn(String instance, int nth) {
        int found = 0;
        for (long id = 1_000; ; id++) {
            boolean onA = VirtualShards.of(id) < VirtualShards.COUNT / 2;
            if (onA == instance.equals("a") && ++found == nth) return id;
        }
    }

    private void publish(GraphCommand... commands) {
        for (GraphCommand c : commands) {
            live.apply(c);
            oracle.apply(c);
            model.apply(c);
        }
    }

    private void standardGraph() {
        publish(new CreateBoard(1, T, boardOfB1, b1), new CreateBoard(2, T, boardOfA1, a1),
                new FollowUser(3, T + 1, a1, b1), new FollowUser(4, T + 2, a2, b1), new FollowBoard(5, T + 3, b2, boardOfB1, b1),
                new FollowUser(6, T + 4, b1, a1), new UnfollowBoard(7, T + 5, a1, boardOfB1, b1), new FollowBoard(8, T + 6, b2, boardOfA1, a1),
                new FollowUser(9, T + 7, a2, a1), new UnfollowUser(10, T + 8, a2, a1));
    }

    private GraphAudit audit() {
        return new GraphAudit(oracle, live.keyspace());
    }

    private Findings scan() {
        return audit().scan(new GraphAudit.Listener() {});
    }

    @Test
    void aGraphBuiltFromTheSameEventsInAnotherOrderWithDuplicatesIsClean() {
        for (int i = 0; i < 20; i++) {
            Scenario s = GraphScenarios.scenarios(40, 80).sample();
            TwoInstances backend = new TwoInstances();
            ShardedGraphStore shuffled = new ShardedGraphStore(backend, new GraphKeys(PREFIX)) {};
            GraphOracle inOrder = new GraphOracle(PREFIX);
            s.deliveries().forEach(c -> tryApply(shuffled, c));
            s.events().forEach(c -> tryApply(inOrder, c));
            Findings f = new GraphAudit(inOrder, shuffled.keyspace()).scan(new GraphAudit.Listener() {});
            assertThat(f.clean()).as("%s\n%s", f, s).isTrue();
            assertThat(f.expectedKeys()).isEqualTo(f.graphKeysByInstance().values().stream().mapToLong(Long::longValue).sum());
        }
    }

    private static void tryApply(ShardedGraphStore store, GraphCommand c) {
        try {
            store.apply(c);
        } catch (dev.pinfeed.followergraph.InvalidCommandException conflictingOwner) {
            // GraphScenarios never names two owners for a board; no command is refused
            throw conflictingOwner;
        }
    }

    @Test
    void deletedFollowEdgesAreNamedByKindInstanceAndUser() {
        standardGraph();
        assertThat(scan().clean()).isTrue();
        GraphDamage.set(live.keyspace(), keys.followingExplicit(a1), String.valueOf(b1), null);
        GraphDamage.set(live.keyspace(), keys.followersExplicit(b1), String.valueOf(a2), null);

        Findings f = scan();
        assertThat(f.sequences()).isEmpty();
        assertThat(f.keys()).extracting(d -> d.parsed().kind(), KeyDifference::instance, KeyDifference::key, KeyDifference::shape)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(Kind.FOLLOWING_EXPLICIT, "a", keys.followingExplicit(a1), KeyDifference.Shape.MISSING),
                        org.assertj.core.groups.Tuple.tuple(Kind.FOLLOWERS_EXPLICIT, "b", keys.followersExplicit(b1), KeyDifference.Shape.DIFFERENT));
        assertThat(f.keys().get(0).members()).containsExactly(new KeyDifference.MemberDifference(String.valueOf(b1), String.valueOf(T + 1), null));
        assertThat(f.keys().get(1).members()).containsExactly(new KeyDifference.MemberDifference(String.valueOf(a2), String.valueOf(T + 2), null));
    }

    @Test
    void reApplyingTheEventsDoesNotRestoreAnEdgeWhoseRegisterSurvivedButARepairDoes() {
        standardGraph();
        GraphDamage.set(live.keyspace(), keys.followingExplicit(a1), String.valueOf(b1), null);
        GraphDamage.set(live.keyspace(), keys.followersExplicit(b1), String.valueOf(a1), null);
        live.apply(new FollowUser(3, T + 1, a1, b1)); // the register is unchanged: the guard skips both sides
        assertThat(live.relation(a1, b1)).isEqualTo(UserRelation.NONE);
        assertThat(scan().count()).isEqualTo(2);

        repairAndCheck();
        assertThat(live.relation(a1, b1)).isEqualTo(UserRelation.EXPLICIT);
    }

    @Test
    void aFlushedInstanceMissesItsKeysAndLeavesTheOtherSidesSequencesAhead() {
        standardGraph();
        GraphDamage.flush(live.keyspace(), "b");
        Findings f = scan();
        assertThat(f.keys()).isNotEmpty().allSatisfy(d -> {
            assertThat(d.instance()).isEqualTo("b");
            assertThat(d.shape()).isEqualTo(KeyDifference.Shape.MISSING);
        });
        assertThat(f.keys()).extracting(KeyDifference::key).contains(keys.followingExplicit(b1), keys.followersExplicit(b1),
                keys.boardsOwned(b1), keys.userRegisters(b1), keys.boardFollowers(b1, boardOfB1), keys.followingImplicit(b2));
        // b1 → a1: registers gone with b's keys, while a1's side still records sequence 1.
        assertThat(f.sequences()).contains(new SequenceDifference(b1, a1, true, null, null, "1", "b", "a"));

        repairAndCheck();
        // And the pair keeps working: a later change reaches a1's side (the guard no longer skips it).
        publish(new UnfollowUser(11, T + 20, b1, a1));
        assertThat(live.counts(a1).explicitFollowers()).isZero();
        assertThat(scan().clean()).isTrue();
    }

    @Test
    void anAlteredRegisterIsNamedAndRepairedToTheEventsVersion() {
        standardGraph();
        String register = GraphDamage.read(live.keyspace(), "a", keys.userRegisters(a2)).entries().get(String.valueOf(b1));
        String forged = "9" + register.substring(1, register.length() - 1) + "U"; // newer than any event, and an unfollow
        GraphDamage.set(live.keyspace(), keys.userRegisters(a2), String.valueOf(b1), forged);
        Findings f = scan();
        assertThat(f.sequences()).isEmpty();
        assertThat(f.keys()).singleElement().satisfies(d -> {
            assertThat(d.parsed().kind()).isEqualTo(Kind.USER_REGISTERS);
            assertThat(d.members()).containsExactly(new KeyDifference.MemberDifference(String.valueOf(b1), register, forged));
        });
        repairAndCheck();
    }

    @Test
    void keysNoEventExplainsAreExtraAndAKeyOnTheWrongInstanceIsExtraThere() {
        standardGraph();
        GraphDamage.set(live.keyspace(), keys.followingImplicit(a1), "777", "5");                 // a member no event made
        GraphDamage.set(live.keyspace(), keys.boardsFollowed(a2), String.valueOf(boardOfB1), "5"); // a board follow without register
        String misplaced = keys.followingExplicit(b2);                                            // b2's key, on instance a
        instances.a.fixKey("memory", new KeyFix(misplaced, "zset", null, List.of(new MemberFix("12", null, "3"))));
        GraphDamage.set(live.keyspace(), keys.boardOwners(55), "55", "66");                           // an owner no event claims

        Findings f = scan();
        assertThat(f.keys()).extracting(KeyDifference::key, KeyDifference::instance, KeyDifference::shape).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple(keys.followingImplicit(a1), "a", KeyDifference.Shape.EXTRA),
                org.assertj.core.groups.Tuple.tuple(keys.boardsFollowed(a2), "a", KeyDifference.Shape.EXTRA),
                org.assertj.core.groups.Tuple.tuple(misplaced, "a", KeyDifference.Shape.EXTRA),
                org.assertj.core.groups.Tuple.tuple(keys.boardOwners(55), instanceOfShard(VirtualShards.of(55)), KeyDifference.Shape.EXTRA));
        assertThat(f.keys()).filteredOn(d -> d.key().equals(misplaced)).singleElement().satisfies(d -> assertThat(d.misplaced()).isTrue());
        repairAndCheck();
    }

    @Test
    void aKeyOfTheWrongTypeIsReplaced() {
        standardGraph();
        GraphDamage.flushKey(live.keyspace(), "b", keys.followersExplicit(b1));
        instances.b.fixKey("memory", new KeyFix(keys.followersExplicit(b1), "set", null, List.of(new MemberFix("1", null, ""))));
        Findings f = scan();
        assertThat(f.keys()).singleElement().satisfies(d -> {
            assertThat(d.wrongType()).isTrue();
            assertThat(d.actualType()).isEqualTo("set");
        });
        repairAndCheck();
    }

    @Test
    void aDifferenceOnlyANewerEventExplainsIsGoneOnceTheOracleCaughtUpWhileDamagePersists() {
        standardGraph();
        FollowUser newer = new FollowUser(30, T + 50, b2, a2);
        live.apply(newer); // the live processor is ahead of the offsets the oracle read to
        GraphDamage.set(live.keyspace(), keys.followingExplicit(a1), String.valueOf(b1), null);
        Findings first = scan();
        assertThat(first.keys()).extracting(KeyDifference::key).containsExactlyInAnyOrder(keys.followingExplicit(a1),
                keys.followingExplicit(b2), keys.followersExplicit(a2), keys.userRegisters(b2));

        GraphAudit audit = audit();
        GraphAudit.Observation seen = audit.observe(first);
        oracle.apply(newer); // caught up to offsets read after the observation
        model.apply(newer);
        Findings left = audit.recheck(seen);
        assertThat(left.keys()).extracting(KeyDifference::key).containsExactly(keys.followingExplicit(a1));
        assertThat(left.sequences()).isEmpty();
        audit.repair(audit.plan(left), new GraphAudit.Listener() {});
        repairAndCheck();
    }

    @Test
    void aRepairNeverTakesBackAnEventAppliedAfterTheAuditRead() {
        standardGraph();
        GraphDamage.set(live.keyspace(), keys.followingExplicit(a1), String.valueOf(b1), null);
        Findings f = scan();
        RepairPlan plan = audit().plan(f);
        // Between the audit's read and the repair, the live processor applies a newer unfollow of the pair.
        live.apply(new UnfollowUser(20, T + 30, a1, b1));
        audit().repair(plan, new GraphAudit.Listener() {});
        assertThat(live.relation(a1, b1)).isEqualTo(UserRelation.NONE);
        assertThat(live.counts(b1).explicitFollowers()).isEqualTo(1);
        oracle.apply(new UnfollowUser(20, T + 30, a1, b1));
        assertThat(scan().clean()).isTrue();
    }

    @Test
    void aRegisterFixIsSkippedWhenTheRegisterChangedSinceTheRead() {
        standardGraph();
        String register = GraphDamage.read(live.keyspace(), "a", keys.userRegisters(a2)).entries().get(String.valueOf(b1));
        String forged = register.substring(0, register.length() - 1) + "U";
        GraphDamage.set(live.keyspace(), keys.userRegisters(a2), String.valueOf(b1), forged);
        RepairPlan plan = audit().plan(scan());
        live.apply(new UnfollowUser(21, T + 40, a2, b1)); // a real, newer unfollow replaces the forged register
        RepairPlan.Outcome outcome = audit().repair(plan, new GraphAudit.Listener() {});
        assertThat(outcome.skippedRegisterFixes()).isEqualTo(1);
        oracle.apply(new UnfollowUser(21, T + 40, a2, b1));
        model.apply(new UnfollowUser(21, T + 40, a2, b1));
        assertThat(scan().clean()).isTrue();
        assertThat(live.relation(a2, b1)).isEqualTo(UserRelation.NONE);
    }

    @Test
    void aRepairStopsBetweenStepsWhenAsked() {
        standardGraph();
        GraphDamage.flush(live.keyspace(), "a");
        RepairPlan plan = audit().plan(scan());
        assertThat(plan.size()).isGreaterThan(2);
        int[] done = {0};
        RepairPlan.Outcome outcome = audit().repair(plan, new GraphAudit.Listener() {
            @Override
            public void repaired() {
                done[0]++;
            }

            @Override
            public boolean stopRequested() {
                return done[0] == 2;
            }
        });
        assertThat(outcome.stopped()).isTrue();
        assertThat(outcome.pairs() + outcome.keys()).isEqualTo(2);
        repairAndCheck(); // the rest, by a second run
    }

    private String instanceOfShard(int shard) {
        return instances.instanceOf(shard);
    }

    private void repairAndCheck() {
        GraphAudit audit = audit();
        audit.repair(audit.plan(scan()), new GraphAudit.Listener() {});
        Findings after = scan();
        assertThat(after.clean()).as("after the repair: %s", after).isTrue();
        assertThat(audit.plan(after).size()).isZero();
        List<Long> users = List.of(a1, a2, b1, b2);
        GraphAssertions.assertSameGraph(model, live, users, List.of(boardOfA1, boardOfB1), 2);
    }

    @Property(tries = 60)
    void anyDamageIsFoundAndRepairedToTheModel(@ForAll("histories") Scenario scenario, @ForAll("seeds") long seed) {
        GraphDamage.findAndRepair(new ShardedGraphStore(new TwoInstances(), new GraphKeys(PREFIX)) {}, scenario, seed);
    }

    @Provide
    Arbitrary<Scenario> histories() {
        return GraphScenarios.scenarios(20, 60);
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }
}
