package dev.pinfeed.canonicalstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.canonicalstore.CanonicalChange.DeactivateMapping;
import dev.pinfeed.canonicalstore.CanonicalChange.DeleteComment;
import dev.pinfeed.canonicalstore.CanonicalChange.DeletePin;
import dev.pinfeed.canonicalstore.CanonicalChange.PutLike;
import dev.pinfeed.canonicalstore.CanonicalChange.PutMapping;
import dev.pinfeed.canonicalstore.CanonicalChange.ReorderBoard;
import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.idallocator.InvalidIdException;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where each change writes, what it provides, and which cache keys it makes stale. */
class CanonicalChangeTest {

    private static final long USER = ShardedId.compose(10, ObjectType.USER, 1);
    private static final long BOARD = ShardedId.compose(20, ObjectType.BOARD, 2);
    private static final long PIN = ShardedId.compose(30, ObjectType.PIN, 3);
    private static final long COMMENT = ShardedId.compose(30, ObjectType.COMMENT, 4);

    @Test
    void aMappingLivesOnItsFromObjectsShardAndALikeOnBoth() {
        assertThat(new PutMapping(Mapping.BOARD_HAS_PINS, BOARD, PIN, 1).shards()).containsExactly(20);
        assertThat(new PutLike(USER, PIN, true, 1, 2).shards()).containsExactly(10, 30);
        assertThat(new PutLike(USER, PIN, true, 1, 2).provides()).containsExactly(CanonicalRef.mapping(Mapping.USER_LIKES_PINS, USER, PIN),
                CanonicalRef.mapping(Mapping.PIN_LIKED_BY_USERS, PIN, USER));
        assertThat(CanonicalRef.mapping(Mapping.BOARD_HAS_PINS, BOARD, PIN).shard()).isEqualTo(20);
        assertThat(CanonicalRef.object(CanonicalLayout.PINS, PIN).describe()).isEqualTo("pin " + PIN);
    }

    @Test
    void invalidationsFollowTheCacheKeyOwner() {
        assertThat(new DeletePin(PIN, BOARD, USER, 1).invalidations()).containsExactly(
                CacheInvalidation.of(PIN, CanonicalCacheKeys.pin(PIN), CanonicalCacheKeys.pinLikes(PIN), CanonicalCacheKeys.pinComments(PIN),
                        CanonicalCacheKeys.pinRepins(PIN)));
        assertThat(new DeleteComment(COMMENT, PIN, USER, 1).invalidations()).containsExactly(
                CacheInvalidation.of(COMMENT, CanonicalCacheKeys.comment(COMMENT)));
        assertThat(new CanonicalChange.PutObject(CanonicalLayout.COMMENTS, COMMENT, "{}", 1).invalidations()).containsExactly(
                CacheInvalidation.of(COMMENT, CanonicalCacheKeys.comment(COMMENT)));
        assertThat(new PutMapping(Mapping.PIN_HAS_COMMENTS, PIN, COMMENT, 1).invalidations()).containsExactly(
                CacheInvalidation.of(PIN, CanonicalCacheKeys.pinComments(PIN)));
        assertThat(new DeactivateMapping(Mapping.PIN_HAS_COMMENTS, PIN, COMMENT, 1).invalidations()).containsExactly(
                CacheInvalidation.of(PIN, CanonicalCacheKeys.pinComments(PIN)));
        long repin = PIN + 1;
        assertThat(new PutMapping(Mapping.PIN_HAS_REPINS, PIN, repin, 1).invalidations()).as("the parent's count")
                .containsExactly(CacheInvalidation.of(PIN, CanonicalCacheKeys.pinRepins(PIN)));
        assertThat(new PutMapping(Mapping.PIN_HAS_REPINS, PIN, repin, 1).shards()).as("on the parent's shard").containsExactly(30);
        assertThat(new DeactivateMapping(Mapping.BOARD_HAS_PINS, BOARD, PIN, 1).invalidations()).containsExactly(
                CacheInvalidation.of(BOARD, CanonicalCacheKeys.boardPins(BOARD, "newest"), CanonicalCacheKeys.boardPins(BOARD, "custom")));
        assertThat(new DeactivateMapping(Mapping.USER_HAS_PINS, USER, PIN, 1).invalidations()).isEmpty();
        assertThat(new ReorderBoard(BOARD, List.of(PIN), 1, 1).invalidations()).containsExactly(
                CacheInvalidation.of(BOARD, CanonicalCacheKeys.boardPins(BOARD, "custom")));
    }

    @Test
    void changesRefuseTablesThatCannotHoldThem() {
        assertThatThrownBy(() -> new PutMapping(Mapping.USER_LIKES_PINS, USER, PIN, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DeactivateMapping(Mapping.USER_HAS_BOARDS, USER, BOARD, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new ReorderBoard(BOARD, List.of(PIN, PIN), 1, 1).pinIds()).containsExactly(PIN);
    }

    @Test
    void idsAreCheckedForTheirType() {
        assertThat(CanonicalIds.check(PIN, ObjectType.PIN, "pinId")).isEqualTo(PIN);
        assertThatThrownBy(() -> CanonicalIds.check(PIN, ObjectType.BOARD, "boardId")).isInstanceOf(InvalidIdException.class)
                .hasMessageContaining("boardId").hasMessageContaining("pin id");
        assertThat(CanonicalIds.tableOf(ObjectType.BOARD)).isEqualTo(CanonicalLayout.BOARDS);
        assertThat(CanonicalIds.typeOf(CanonicalLayout.PINS)).isEqualTo(ObjectType.PIN);
    }

    @Test
    void theTombstoneIsAnInactivePlaceholderWithoutCreationTime() {
        String t = CanonicalLayout.Json.pinTombstone(PIN, BOARD, USER);
        assertThat(t).contains("\"active\":false").contains("\"boardId\":" + BOARD).doesNotContain(CanonicalLayout.Json.CREATED_AT);
        assertThat(CanonicalLayout.Json.pin(PIN, 5, BOARD, USER, "d", null, null)).contains("\"createdAt\":5").doesNotContain("link");
        assertThat(new DeleteComment(COMMENT, PIN, USER, 1).tombstone()).contains("\"active\":false").contains("\"pinId\":" + PIN)
                .doesNotContain(CanonicalLayout.Json.CREATED_AT);
        assertThat(CanonicalLayout.Json.comment(COMMENT, 5, PIN, USER, "hi")).isEqualTo(
                "{\"id\":" + COMMENT + ",\"createdAt\":5,\"pinId\":" + PIN + ",\"authorId\":" + USER + ",\"text\":\"hi\"}");
        assertThat(new DeleteComment(COMMENT, PIN, USER, 1).shards()).containsExactly(30);
    }
}
