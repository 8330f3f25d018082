package dev.pinfeed.operations.verify.pools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.feedstore.InMemoryPoolStore;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolRows;
import dev.pinfeed.feedstore.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class UsersInOrderTest {

    private final InMemoryPoolStore pools = new InMemoryPoolStore();

    private void rowOf(long user) {
        pools.upsert(List.of(new PoolEntry(user, Source.FOLLOWED_USER, 1, 99, 1, 2, 3)));
    }

    private List<Long> users(UsersInOrder it) {
        List<Long> out = new ArrayList<>();
        it.forEachRemaining(r -> out.add(r.userId()));
        return out;
    }

    @Test
    void usersWithRowsAndReceiversWithoutComeMergedInIdOrderOnce() {
        for (long u : List.of(10L, 20L, 30L, 40L, 50L)) rowOf(u);
        TreeSet<Long> receivers = new TreeSet<>(List.of(5L, 20L, 25L, 60L));
        assertThat(users(new UsersInOrder(pools, receivers, 0, 2))).containsExactly(5L, 10L, 20L, 25L, 30L, 40L, 50L, 60L);
    }

    @Test
    void afterStartsPastTheGivenUser() {
        for (long u : List.of(10L, 20L, 30L)) rowOf(u);
        TreeSet<Long> receivers = new TreeSet<>(List.of(15L, 20L, 35L));
        assertThat(users(new UsersInOrder(pools, receivers, 20, 1))).containsExactly(30L, 35L);
    }

    @Test
    void aReceiverWithoutRowsComesWithEmptyRowsAndOneWithRowsWithHis() {
        rowOf(10);
        UsersInOrder it = new UsersInOrder(pools, new TreeSet<>(List.of(7L, 10L)), 0, 10);
        assertThat(it.next()).isEqualTo(new PoolRows.UserRows(7, List.of(), List.of(), List.of(), Set.of()));
        assertThat(it.next().live()).hasSize(1);
        assertThat(it.hasNext()).isFalse();
    }
}
