package dev.pinfeed.followergraph.sharded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.followergraph.GraphAssertions;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphCommand.FollowBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowUser;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.GraphStoreContract;
import dev.pinfeed.redisshards.VirtualShards;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class InMemoryGraphStoreTest extends GraphStoreContract {

    private final AtomicLong ids = new AtomicLong(1_000);

    @Override
    protected GraphStore newStore() {
        return new InMemoryGraphStore();
    }

    @Override
    protected long freshId() {
        return ids.incrementAndGet();
    }

    @Test
    void receiverPagesStayWithinTheLimitWhenTheOwnersFollowersFillOneExactly() {
        InMemoryGraphStore store = new InMemoryGraphStore();
        store.apply(new GraphCommand.CreateBoard(1, 1, 500, 5));
        store.apply(new FollowUser(2, 2, 11, 5));
        store.apply(new FollowUser(3, 3, 12, 5));
        for (long f = 21; f <= 23; f++) store.apply(new FollowBoard(f, 4, f, 500, 5));

        assertThat(GraphAssertions.pages(c -> store.boardReceivers(500, c, 2)))
                .containsExactly(java.util.List.of(12L, 11L), java.util.List.of(21L, 22L), java.util.List.of(23L));
    }

    @Test
    void everyKeyOfAPairSideCarriesItsUsersShardTag() {
        InMemoryGraphStore store = new InMemoryGraphStore();
        GraphKeys k = store.keys();
        store.apply(new FollowUser(1, 10, 7, 8));
        store.apply(new FollowBoard(2, 11, 7, 900, 8));

        assertThat(store.keySet()).containsExactlyInAnyOrder(
                k.userRegisters(7), k.boardRegisters(7, 8), k.pairVersions(7), k.followingExplicit(7), k.boardsFollowed(7),
                k.followeeVersions(8), k.followersExplicit(8), k.boardFollowers(8, 900), k.boardOwners(900));
        assertThat(k.followingExplicit(7)).isEqualTo("{v" + VirtualShards.of(7) + "}:u:7:fe");
        assertThat(k.boardFollowers(8, 900)).isEqualTo("{v" + VirtualShards.of(8) + "}:b:900:f");
    }
}
