package dev.pinfeed.idallocator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ShardPlacementTest {

    private final ShardPlacement seedStart = new ShardPlacement(OpenShards.parse("0-4095"), new SplittableRandom(42));

    @Test
    void newUsersSpreadEvenlyOverTheOpenShards() {
        int buckets = 16; // 256 shards each
        int draws = 160_000;
        int[] counts = new int[buckets];
        for (int i = 0; i < draws; i++) {
            int shard = seedStart.shardForNewUser();
            assertThat(shard).isBetween(0, 4095);
            counts[shard / 256]++;
        }
        double expected = (double) draws / buckets;
        double chiSquare = 0;
        for (int c : counts) chiSquare += (c - expected) * (c - expected) / expected;
        assertThat(chiSquare).as("chi-square over 15 degrees of freedom (p=0.001 critical value 37.7)").isLessThan(37.7);
    }

    @Test
    void openingANewRangeSendsNewUsersOnlyThere() {
        ShardPlacement later = new ShardPlacement(OpenShards.parse("4096-8191"), new SplittableRandom(7));
        boolean[] seen = new boolean[4096];
        for (int i = 0; i < 200_000; i++) {
            int shard = later.shardForNewUser();
            assertThat(shard).isBetween(4096, 8191);
            seen[shard - 4096] = true;
        }
        for (int i = 0; i < seen.length; i++) assertThat(seen[i]).as("shard %d chosen at least once", 4096 + i).isTrue();
    }

    @Test
    void boardsGoOnTheirOwnersShardAndPinsAndCommentsFollow() {
        long user = ShardedId.compose(3429, ObjectType.USER, 55);
        int boardShard = seedStart.shardForNewBoard(user);
        long board = ShardedId.compose(boardShard, ObjectType.BOARD, 8);
        int pinShard = seedStart.shardForNewPin(board);
        long pin = ShardedId.compose(pinShard, ObjectType.PIN, 7075733);

        assertThat(boardShard).isEqualTo(3429);
        assertThat(pinShard).isEqualTo(3429);
        assertThat(seedStart.shardForNewComment(pin)).isEqualTo(3429);
    }

    @Test
    void childrenOfObjectsOnClosedShardsStayThere() {
        long oldBoard = ShardedId.compose(100, ObjectType.BOARD, 1);
        ShardPlacement onlyNewRange = new ShardPlacement(OpenShards.parse("4096-8191"), new SplittableRandom(1));

        assertThat(onlyNewRange.shardForNewPin(oldBoard)).isEqualTo(100);
    }

    @Test
    void rejectsParentsOfTheWrongTypeOrInvalidIds() {
        long pin = ShardedId.compose(5, ObjectType.PIN, 1);
        assertThatThrownBy(() -> seedStart.shardForNewPin(pin)).isInstanceOf(InvalidIdException.class)
                .hasMessageContaining("is a pin, not a board");
        assertThatThrownBy(() -> seedStart.shardForNewBoard(-1)).isInstanceOf(InvalidIdException.class);
    }
}
