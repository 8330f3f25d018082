package dev.pinfeed.operations.verify.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.operations.verify.index.IndexCheck.Claim;
import dev.pinfeed.operations.verify.index.IndexCheck.Created;
import dev.pinfeed.operations.verify.index.IndexCheck.Scope;
import dev.pinfeed.operations.verify.index.IndexCheck.UserRow;
import dev.pinfeed.operations.verify.index.IndexReport.Difference;
import dev.pinfeed.operations.verify.index.IndexReport.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/** The comparison over plain collections: each kind of difference, its repair, and what is not a difference. */
class IndexCheckTest {

    /** A stand-in for the CRC-32C placement: the name's length (any fixed function will do). */
    private static final ToIntFunction<String> SHARD = String::length;

    private final List<Claim> claims = new ArrayList<>();
    private final List<UserRow> users = new ArrayList<>();
    private final List<Created> published = new ArrayList<>();

    private void claim(String name, long userId) {
        claims.add(new Claim(SHARD.applyAsInt(name), name, userId));
    }

    private void user(long id, String name, long createdAt) {
        users.add(new UserRow(id, name, createdAt));
    }

    private IndexReport compare() {
        return compare(Scope.ALL);
    }

    private IndexReport compare(Scope scope) {
        return IndexCheck.compare(claims, users, published, scope, SHARD);
    }

    private static Difference only(IndexReport r) {
        assertThat(r.differences()).hasSize(1);
        return r.differences().get(0);
    }

    @Test
    void claimsThatNameTheUserWhoseRowHasTheNameAreClean() {
        user(1, "ana", 100);
        user(2, "bob", 200);
        user(3, null, 300); // a row without a username claims nothing
        claim("ana", 1);
        claim("bob", 2);
        IndexReport r = compare();
        assertThat(r.clean()).isTrue();
        assertThat(r.claims()).isEqualTo(2);
        assertThat(r.users()).isEqualTo(2);
        assertThat(r.fixes()).isEmpty();
        assertThat(IndexCheck.unbackedUserIds(claims, users, Scope.ALL, SHARD)).isEmpty();
    }

    @Test
    void aClaimWhoseUserHasNoRowAndIsNotInTheTopicIsAnOrphanDeletedOnlyWhileItNamesThatUser() {
        user(1, "ana", 100);
        claim("ana", 1);
        claim("ghost", 9);
        assertThat(IndexCheck.unbackedUserIds(claims, users, Scope.ALL, SHARD)).containsExactly(9L);
        Difference d = only(compare());
        assertThat(d.kind()).isEqualTo(Kind.ORPHAN);
        assertThat(d.username()).isEqualTo("ghost");
        assertThat(d.claimedUserId()).isEqualTo(9);
        assertThat(d.expectedUserId()).isZero();
        assertThat(d.detail()).contains("no user row");
        assertThat(d.fix()).isEqualTo(new IndexFix.DeleteClaim(5, "ghost", 9, true));
    }

    @Test
    void aClaimWhoseUserCreatedIsInTheTopicAwaitsItsRowAndIsNoDifference() {
        claim("carl", 7);
        published.add(new Created(7, "carl"));
        IndexReport r = compare();
        assertThat(r.clean()).isTrue();
        assertThat(r.awaiting()).isEqualTo(1);
    }

    @Test
    void aUserCreatedWithAnotherNameDoesNotSaveAClaim() {
        claim("carl", 7);
        published.add(new Created(7, "carla"));
        assertThat(only(compare()).kind()).isEqualTo(Kind.ORPHAN);
    }

    @Test
    void aClaimNamingAUserWhoseRowHasAnotherNameIsAnOrphanToo() {
        user(1, "ana", 100);
        claim("ana", 1);
        claim("anna", 1);
        Difference d = only(compare());
        assertThat(d.kind()).isEqualTo(Kind.ORPHAN);
        assertThat(d.username()).isEqualTo("anna");
        assertThat(d.detail()).contains("'ana'");
        assertThat(d.fix()).isEqualTo(new IndexFix.DeleteClaim(4, "anna", 1, true));
    }

    @Test
    void aUserRowsNameWithoutAClaimIsMissingAndGetsInsertedOnItsShard() {
        user(1, "ana", 100);
        Difference d = only(compare());
        assertThat(d.kind()).isEqualTo(Kind.MISSING);
        assertThat(d.claimedUserId()).isZero();
        assertThat(d.expectedUserId()).isEqualTo(1);
        assertThat(d.fix()).isEqualTo(new IndexFix.InsertClaim(3, "ana", 1));
    }

    @Test
    void aNameTheIndexColumnCannotHoldIsMissingWithoutARepair() {
        user(1, "x".repeat(31), 100);
        user(2, "zoë", 100);
        IndexReport r = compare();
        assertThat(r.differences()).extracting(Difference::kind).containsExactly(Kind.MISSING, Kind.MISSING);
        assertThat(r.fixes()).isEmpty();
        assertThat(r.differences().get(0).detail()).contains("cannot be claimed");
    }

    @Test
    void aClaimNamingAnotherUserIsMovedToTheUserWhoseRowHasTheName() {
        user(1, "ana", 100);
        user(2, "bob", 200);
        claim("ana", 2);
        claim("bob", 2);
        assertThat(IndexCheck.unbackedUserIds(claims, users, Scope.ALL, SHARD)).containsExactly(2L);
        Difference d = only(compare());
        assertThat(d.kind()).isEqualTo(Kind.WRONG_USER);
        assertThat(d.claimedUserId()).isEqualTo(2);
        assertThat(d.expectedUserId()).isEqualTo(1);
        assertThat(d.detail()).contains("'bob'");
        assertThat(d.fix()).isEqualTo(new IndexFix.MoveClaim(3, "ana", 2, 1, true));
    }

    @Test
    void aWrongClaimWhoseUserIsOnItsWayWithThatNameIsReportedButLeftAlone() {
        user(1, "ana", 100);
        claim("ana", 2);
        published.add(new Created(2, "ana"));
        Difference d = only(compare());
        assertThat(d.kind()).isEqualTo(Kind.WRONG_USER);
        assertThat(d.fix()).isNull();
        assertThat(d.detail()).contains("not materialized yet");
    }

    @Test
    void usersSharingANameLeaveTheClaimWithTheFirstCreatedAndTheOthersUnrepaired() {
        user(5, "ana", 300);
        user(4, "ana", 100);
        user(3, "ana", 100); // same createdAt as 4: the smaller id is first
        claim("ana", 3);
        Difference d = only(compare());
        assertThat(d.kind()).isEqualTo(Kind.SHARED);
        assertThat(d.expectedUserId()).isEqualTo(3);
        assertThat(d.sharing()).containsExactly(4L, 5L);
        assertThat(d.fix()).isNull();
        assertThat(d.detail()).contains("cannot be repaired automatically");
    }

    @Test
    void aSharedNameClaimedByALaterUserMovesToTheFirstWithoutARecheck() {
        user(1, "ana", 100);
        user(2, "ana", 200);
        claim("ana", 2);
        Difference d = only(compare());
        assertThat(d.kind()).isEqualTo(Kind.SHARED);
        assertThat(d.fix()).isEqualTo(new IndexFix.MoveClaim(3, "ana", 2, 1, false));
    }

    @Test
    void aSharedNameWithoutAClaimIsClaimedForTheFirst() {
        user(2, "ana", 200);
        user(1, "ana", 100);
        Difference d = only(compare());
        assertThat(d.kind()).isEqualTo(Kind.SHARED);
        assertThat(d.fix()).isEqualTo(new IndexFix.InsertClaim(3, "ana", 1));
    }

    @Test
    void aClaimOnAnotherShardIsMisplacedAndDeletedThereWhileTheNameIsJudgedOnItsOwnShard() {
        user(1, "ana", 100);
        claims.add(new Claim(17, "ana", 1));
        IndexReport r = compare();
        assertThat(r.differences()).extracting(Difference::kind).containsExactly(Kind.MISSING, Kind.MISPLACED);
        assertThat(r.fixes()).containsExactly(new IndexFix.InsertClaim(3, "ana", 1), new IndexFix.DeleteClaim(17, "ana", 1, false));
        assertThat(IndexCheck.unbackedUserIds(claims, users, Scope.ALL, SHARD)).as("a misplaced claim needs no topic").isEmpty();
    }

    @Test
    void aScopeJudgesOnlyItsNamesButKnowsEveryRowToTellWhyAClaimIsWrong() {
        user(1, "it_ana", 100);
        user(2, "bob", 200);
        claim("it_ana", 1);
        claim("it_bee", 2); // user 2 is out of scope, but his row tells why this claim is wrong
        claim("zed", 99);   // out of scope: not judged
        user(3, "carl", 300); // out of scope: no claim, not judged
        Scope scope = new Scope("it_");
        assertThat(IndexCheck.unbackedUserIds(claims, users, scope, SHARD)).containsExactly(2L);
        IndexReport r = compare(scope);
        Difference d = only(r);
        assertThat(d.username()).isEqualTo("it_bee");
        assertThat(d.detail()).contains("'bob'");
        assertThat(r.claims()).isEqualTo(2);
        assertThat(r.users()).isEqualTo(1);
    }

    @Test
    void theScopesUpperBoundIsThePrefixWithItsLastCharacterIncremented() {
        Scope scope = new Scope("it_a9");
        assertThat(scope.upperBound()).isEqualTo("it_a:");
        assertThat("it_a9zzz").isGreaterThanOrEqualTo(scope.prefix()).isLessThan(scope.upperBound());
        assertThat("it_a:").isGreaterThanOrEqualTo(scope.upperBound());
        assertThat(new Scope("z").upperBound()).isEqualTo("{");
        assertThat(Scope.ALL.contains("anything")).isTrue();
        assertThatThrownBy(() -> new Scope("it ana")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Scope("zoë")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void differencesComeByUsernameWithCountsPerKind() {
        user(1, "b", 100);
        claim("a", 9);
        claim("c", 1);
        IndexReport r = compare();
        assertThat(r.differences()).extracting(Difference::username).containsExactly("a", "b", "c");
        Map<Kind, Integer> counts = r.counts();
        assertThat(counts).containsEntry(Kind.ORPHAN, 2).containsEntry(Kind.MISSING, 1).containsEntry(Kind.WRONG_USER, 0)
                .containsEntry(Kind.SHARED, 0).containsEntry(Kind.MISPLACED, 0);
    }

    @Test
    void theSettleWaitIsWhatIsLeftOfTheSettleTimeSinceTheClaimsWereRead() {
        Instant read = Instant.parse("2026-11-28T10:00:00Z");
        Duration settle = Duration.ofSeconds(60);
        assertThat(IndexCheck.settleWait(read, read.plusSeconds(15), settle)).isEqualTo(Duration.ofSeconds(45));
        assertThat(IndexCheck.settleWait(read, read.plusSeconds(60), settle)).isZero();
        assertThat(IndexCheck.settleWait(read, read.plusSeconds(600), settle)).isZero();
        assertThat(IndexCheck.settleWait(read, read, Duration.ZERO)).isZero();
    }

    @Test
    void aFixThatTakesANameIsLeftAloneOnceItsUsersRowHasTheName() {
        IndexFix orphan = new IndexFix.DeleteClaim(5, "ghost", 9, true);
        IndexFix wrong = new IndexFix.MoveClaim(3, "ana", 2, 1, true);
        IndexFix sharedMove = new IndexFix.MoveClaim(3, "ana", 2, 1, false);
        IndexFix insert = new IndexFix.InsertClaim(3, "ana", 1);
        assertThat(orphan.recheckUserId()).isEqualTo(9);
        assertThat(wrong.recheckUserId()).isEqualTo(2);
        assertThat(sharedMove.recheckUserId()).isZero();
        assertThat(insert.recheckUserId()).isZero();
        assertThat(orphan.safeGiven(Map.of())).isTrue();
        assertThat(orphan.safeGiven(Map.of(9L, "other"))).isTrue();
        assertThat(orphan.safeGiven(Map.of(9L, "ghost"))).isFalse();
        assertThat(wrong.safeGiven(Map.of(2L, "bob"))).isTrue();
        assertThat(wrong.safeGiven(Map.of(2L, "ana"))).isFalse();
        assertThat(sharedMove.safeGiven(Map.of(2L, "ana"))).as("first created keeps a shared name").isTrue();
        assertThat(insert.safeGiven(Map.of(1L, "ana"))).isTrue();
    }
}
