package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DemoPlanTest {

    private final DemoPlan plan = new DemoPlan(DemoPlan.Size.DEFAULT, 20261124L);

    @Test
    void isAPowerLawGraph_aFewAuthorsWithThousandsOfFollowersMostWithAHandful() {
        int[] sorted = plan.followers.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        assertThat(plan.usernames).hasSize(3000);
        assertThat(sorted[n - 1]).as("most followed").isGreaterThanOrEqualTo(1000);
        assertThat(sorted[n - 3]).as("third most followed").isGreaterThanOrEqualTo(500);
        assertThat(sorted[n / 2]).as("median").isLessThanOrEqualTo(5);
        assertThat(plan.boards.size()).isBetween(4000, 8000);
        assertThat(plan.pins.size()).isGreaterThan(5000);
        assertThat(plan.follows.size()).isGreaterThan(20_000);
    }

    @Test
    void followsAreDistinctAndNeverOfOneself() {
        Set<String> seen = new HashSet<>();
        for (DemoPlan.Follow f : plan.follows) {
            assertThat(seen.add(f.follower() + (f.user() ? "u" : "b") + f.target())).as("duplicate %s", f).isTrue();
            if (f.user()) assertThat(f.target()).isNotEqualTo(f.follower());
            else assertThat(plan.boards.get(f.target()).owner()).isNotEqualTo(f.follower());
        }
    }

    @Test
    void boardUnfollowsDropABoardOfAFollowedUser() {
        assertThat(plan.boardUnfollows).isNotEmpty();
        for (DemoPlan.Follow u : plan.boardUnfollows) {
            int owner = plan.boards.get(u.target()).owner();
            assertThat(plan.follows).contains(new DemoPlan.Follow(u.follower(), owner, true));
        }
    }

    @Test
    void sameSeedSamePlan_soAnInterruptedLoadResumesWithTheSameRequests() {
        DemoPlan again = new DemoPlan(DemoPlan.Size.DEFAULT, 20261124L);
        assertThat(again.follows).isEqualTo(plan.follows);
        assertThat(again.pins).isEqualTo(plan.pins);
        assertThat(again.likes.stream().map(Arrays::toString).toList()).isEqualTo(plan.likes.stream().map(Arrays::toString).toList());
        assertThat(again.comments).isEqualTo(plan.comments);
        assertThat(again.repins).isEqualTo(plan.repins);
    }

    @Test
    void usersRepinOthersPinsOntoTheirOwnBoardsAndTheMostFollowedIsACelebrity() {
        assertThat(plan.repins).hasSizeGreaterThan(DemoPlan.Size.DEFAULT.users() / 10);
        for (DemoPlan.Repin r : plan.repins) {
            assertThat(plan.boards.get(r.board()).owner()).isEqualTo(r.user());
            assertThat(plan.pins.get(r.pin()).author()).isNotEqualTo(r.user());
        }
        assertThat(plan.followers[plan.mostFollowed()]).isGreaterThanOrEqualTo(DemoPlan.CELEBRITY_FOLLOWERS);
    }

    @Test
    void aboutOneCommentPerUserOnPopularPinsMostly() {
        assertThat(plan.comments).hasSizeBetween(DemoPlan.Size.DEFAULT.users() / 2, DemoPlan.Size.DEFAULT.users() * 2);
        assertThat(plan.comments).allSatisfy(c -> assertThat(c.pin()).isBetween(0, plan.pins.size() - 1));
        long onTopTenth = plan.comments.stream().filter(c -> c.pin() < plan.pins.size() / 10).count();
        assertThat(onTopTenth).as("Zipf: the first tenth of the pins gets more than a tenth of the comments").isGreaterThan(plan.comments.size() / 10);
    }

    @Test
    void theBusyReaderFollowsEnoughUsersToHaveAFeed() {
        int reader = plan.busyReader(20);
        List<DemoPlan.Follow> his = plan.follows.stream().filter(f -> f.user() && f.follower() == reader).toList();
        assertThat(his).hasSizeGreaterThanOrEqualTo(20);
    }

    @Test
    void usernamesAreValidForTheContract() {
        assertThat(plan.usernames).allMatch(u -> u.matches("[a-z0-9_]{3,30}"));
        assertThat(new HashSet<>(plan.usernames)).hasSize(plan.usernames.size());
    }

    @Test
    void theDevStacksPopularInterestsTakeMostOfTheDemosInterestFanOutAndSomeInterestsStayPushed() {
        long[] followers = new long[DemoPlan.INTERESTS.size()];
        for (int[] f : plan.interestFollows) followers[f[1]]++;
        long pushed = 0, pulled = 0;
        for (List<Integer> carried : plan.pinInterests) {
            for (int i : carried) {
                if (followers[i] >= DemoPlan.POPULAR_INTEREST_FOLLOWERS) pulled += followers[i];
                else pushed += followers[i];
            }
        }
        long popular = java.util.Arrays.stream(followers).filter(n -> n >= DemoPlan.POPULAR_INTEREST_FOLLOWERS).count();
        assertThat(popular).as("popular interests of %s", java.util.Arrays.toString(followers)).isBetween(1L, DemoPlan.INTERESTS.size() - 1L);
        assertThat(pulled).as("interest pool writes left to the pull, of %d", pulled + pushed).isGreaterThan(4 * pushed);
    }

    @Test
    void pinsCarryNoneToTwoOfTwentyInterestsAndUsersFollowAFew() {
        assertThat(DemoPlan.INTERESTS).hasSize(20).doesNotHaveDuplicates()
                .allSatisfy(name -> assertThat(name).matches("[a-z0-9]+(-[a-z0-9]+)*"));
        assertThat(plan.pinInterests).hasSize(plan.pins.size());
        assertThat(plan.pinInterests).allSatisfy(i -> assertThat(i).hasSizeLessThanOrEqualTo(2).doesNotHaveDuplicates());
        assertThat(plan.pinInterests.stream().filter(i -> !i.isEmpty()).count()).as("tagged pins").isGreaterThan(plan.pins.size() / 3);
        assertThat(plan.interestFollows).hasSizeGreaterThan(DemoPlan.Size.DEFAULT.users());
        assertThat(plan.mostFollowedInterest()[1]).isGreaterThan(100);
        DemoPlan again = new DemoPlan(DemoPlan.Size.DEFAULT, 42);
        DemoPlan first = new DemoPlan(DemoPlan.Size.DEFAULT, 42);
        assertThat(again.pinInterests).isEqualTo(first.pinInterests);
    }

    @Test
    void randomReadersAreDistinctDemoUsersDrawnBySeed() {
        List<String> readers = DemoPlan.randomUsernames(400, 7);
        assertThat(readers).hasSize(400).doesNotHaveDuplicates();
        assertThat(new DemoPlan(DemoPlan.Size.DEFAULT, 1).usernames).containsAll(readers);
        assertThat(DemoPlan.randomUsernames(400, 7)).isEqualTo(readers);
        assertThat(DemoPlan.randomUsernames(400, 8)).isNotEqualTo(readers);
        assertThat(readers.subList(0, 50)).isNotEqualTo(DemoPlan.firstUsernames(50));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DemoPlan.randomUsernames(0, 7))
                .hasMessageContaining("--demo-readers");
    }
}
