package dev.pinfeed.followergraph.sharded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphCommand.FollowBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowUser;
import dev.pinfeed.followergraph.GraphCommand.UnfollowUser;
import dev.pinfeed.followergraph.InvalidCommandException;
import dev.pinfeed.followergraph.UserRelation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The write protocol under failure: a crash between a pair's writes leaves a half-written edge that
 * the replay completes, and a stale writer never overwrites a newer state.
 */
class WriteProtocolTest {

    @Test
    void aReplayCompletesAnEdgeWrittenOnlyOnTheFollowersSide() {
        // The follower's side goes with the register (no board registers): the first guarded write is the followee's side.
        ShardedGraphStore graph = new ShardedGraphStore(new CrashingBackend(new MemoryBackend(), 1), new GraphKeys("")) {};
        FollowUser follow = new FollowUser(1, 100, 7, 8);

        assertThatThrownBy(() -> graph.apply(follow)).hasMessageContaining("crash");
        assertThat(graph.relation(7, 8)).isEqualTo(UserRelation.EXPLICIT);
        assertThat(graph.counts(8).followers()).as("followee side not written yet").isZero();

        graph.apply(follow); // redelivered: the register is unchanged, the missing side is written
        assertThat(graph.counts(8).explicitFollowers()).isEqualTo(1);
    }

    @Test
    void aReplayCompletesAnEdgeWhoseRegisterAloneWasWritten() {
        ShardedGraphStore graph = new ShardedGraphStore(new CrashingBackend(new MemoryBackend(), 1), new GraphKeys("")) {};
        FollowBoard follow = new FollowBoard(1, 100, 7, 70, 8);

        assertThatThrownBy(() -> graph.apply(follow)).hasMessageContaining("crash");
        assertThat(graph.followsBoard(7, 70)).isFalse();

        graph.apply(follow);
        assertThat(graph.followsBoard(7, 70)).isTrue();
        assertThat(graph.relation(7, 8)).isEqualTo(UserRelation.IMPLICIT);
        assertThat(graph.counts(8).implicitFollowers()).isEqualTo(1);
    }

    @Test
    void aStaleSnapshotArrivingLastIsIgnored() {
        MemoryBackend memory = new MemoryBackend();
        GraphKeys keys = new GraphKeys("");
        ShardedGraphStore graph = new ShardedGraphStore(memory, keys) {};
        graph.apply(new FollowUser(1, 100, 7, 8));
        graph.apply(new UnfollowUser(2, 200, 7, 8)); // pair sequence 2: not following

        // A slower writer of sequence 1 (the follow) lands now, on both sides.
        List<GraphBackend.Mutation> follow = List.of(new GraphBackend.Mutation(GraphBackend.Op.ZADD, keys.followersExplicit(8), "7", "100"));
        assertThat(memory.apply(0, new GraphBackend.Guard(keys.followeeVersions(8), "7", 1), follow)).isFalse();
        assertThat(graph.counts(8).explicitFollowers()).isZero();
        assertThat(graph.relation(7, 8)).isEqualTo(UserRelation.NONE);
    }

    @Test
    void aFollowWithoutBoardRegistersWritesItsFollowersSideWithItsRegisterAndOthersAsBefore() {
        MemoryBackend memory = new MemoryBackend();
        GraphKeys keys = new GraphKeys("");
        java.util.concurrent.atomic.AtomicInteger guarded = new java.util.concurrent.atomic.AtomicInteger();
        ShardedGraphStore graph = new ShardedGraphStore(new ForwardingBackend(memory) {
            @Override
            public boolean apply(int shard, GraphBackend.Guard guard, List<GraphBackend.Mutation> mutations) {
                if (guard != null) guarded.incrementAndGet();
                return super.apply(shard, guard, mutations);
            }
        }, keys) {};

        graph.apply(new FollowUser(1, 100, 7, 8));
        assertThat(guarded.get()).as("the followee's side only").isEqualTo(1);
        assertThat(graph.relation(7, 8)).isEqualTo(UserRelation.EXPLICIT);
        GraphBackend.Reads reads = memory.reads(memory.instanceOf(0));
        var applied = reads.hmget(keys.pairVersions(7), List.of(GraphKeys.appliedSeqField(8)));
        reads.execute();
        assertThat(applied.get()).as("applied as the pair's sequence").containsExactly("1");

        graph.apply(new FollowBoard(2, 200, 7, 70, 8)); // a board register: both sides guarded again
        assertThat(guarded.get()).isEqualTo(3);
        graph.apply(new UnfollowUser(3, 300, 7, 8)); // the pair has a board register now: derived from all of them
        assertThat(guarded.get()).isEqualTo(5);
        assertThat(graph.relation(7, 8)).isEqualTo(UserRelation.IMPLICIT);
    }

    @Test
    void aStaleFollowersSideArrivingAfterOneWrittenWithItsRegisterIsIgnored() {
        MemoryBackend memory = new MemoryBackend();
        GraphKeys keys = new GraphKeys("");
        ShardedGraphStore graph = new ShardedGraphStore(memory, keys) {};
        graph.apply(new FollowUser(1, 100, 7, 8));
        graph.apply(new UnfollowUser(2, 200, 7, 8)); // both written with their registers: applied sequence 2

        List<GraphBackend.Mutation> follow = List.of(new GraphBackend.Mutation(GraphBackend.Op.ZADD, keys.followingExplicit(7), "8", "100"));
        assertThat(memory.apply(0, new GraphBackend.Guard(keys.pairVersions(7), GraphKeys.appliedSeqField(8), 1), follow)).isFalse();
        assertThat(graph.relation(7, 8)).isEqualTo(UserRelation.NONE);
    }

    @Test
    void aReplayLeavesAFollowersSideAlreadyAtItsSequenceAlone() {
        MemoryBackend memory = new MemoryBackend();
        GraphKeys keys = new GraphKeys("");
        ShardedGraphStore graph = new ShardedGraphStore(memory, keys) {};
        FollowUser follow = new FollowUser(1, 100, 7, 8);
        graph.apply(follow);
        // Damage the side behind the protocol's back: a replay does not undo it, as the guarded write never did.
        memory.apply(0, null, List.of(new GraphBackend.Mutation(GraphBackend.Op.ZREM, keys.followingExplicit(7), "8", null)));

        graph.apply(follow);
        assertThat(graph.relation(7, 8)).isEqualTo(UserRelation.NONE);
        assertThat(graph.counts(8).explicitFollowers()).isEqualTo(1);
    }

    @Test
    void invalidCommandsAreRefusedAtConstruction() {
        assertThatThrownBy(() -> new FollowUser(1, 100, 7, 7)).isInstanceOf(InvalidCommandException.class);
        assertThatThrownBy(() -> new FollowBoard(1, 100, 7, 70, 7)).isInstanceOf(InvalidCommandException.class);
        assertThatThrownBy(() -> new FollowUser(1, 100, 0, 7)).isInstanceOf(InvalidCommandException.class);
        assertThatThrownBy(() -> new FollowUser(0, 100, 6, 7)).isInstanceOf(InvalidCommandException.class);
        assertThatThrownBy(() -> new FollowUser(1, -1, 6, 7)).isInstanceOf(InvalidCommandException.class);
        assertThatThrownBy(() -> new GraphCommand.CreateBoard(1, 100, 70, -3)).isInstanceOf(InvalidCommandException.class);
    }
}
