package dev.pinfeed.materializer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.canonicalstore.CanonicalChange;
import dev.pinfeed.canonicalstore.CanonicalChange.DeactivateMapping;
import dev.pinfeed.canonicalstore.CanonicalChange.DeleteComment;
import dev.pinfeed.canonicalstore.CanonicalChange.DeletePin;
import dev.pinfeed.canonicalstore.CanonicalChange.PutLike;
import dev.pinfeed.canonicalstore.CanonicalChange.PutMapping;
import dev.pinfeed.canonicalstore.CanonicalChange.PutObject;
import dev.pinfeed.canonicalstore.CanonicalChange.ReorderBoard;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.canonicalstore.CanonicalRef;
import dev.pinfeed.events.UserFollowed;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.processorruntime.RejectedRecordException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventPlannerTest {

    private static final long USER = Events.id(ObjectType.USER, 7, 11);
    private static final long BOARD = Events.id(ObjectType.BOARD, 7, 12);
    private static final long PIN = Events.id(ObjectType.PIN, 7, 13);
    private static final long PIN2 = Events.id(ObjectType.PIN, 9, 14);
    private static final long COMMENT = Events.id(ObjectType.COMMENT, 7, 15);

    private final EventPlanner planner = new EventPlanner();
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void userCreatedPutsTheUserObjectWithItsFieldsAndCreationTime() throws Exception {
        EventPlanner.Plan plan = planner.plan(Events.user(USER, 1_000));
        assertThat(plan.needs()).isEmpty();
        assertThat(plan.changes()).hasSize(1);
        PutObject put = (PutObject) plan.changes().get(0);
        assertThat(put.table()).isEqualTo(CanonicalLayout.USERS);
        assertThat(put.id()).isEqualTo(USER);
        JsonNode data = json.readTree(put.json());
        assertThat(data.get("id").asLong()).isEqualTo(USER);
        assertThat(data.get("createdAt").asLong()).isEqualTo(1_000);
        assertThat(data.get("username").asText()).isEqualTo("u11");
        assertThat(data.get("displayName").asText()).isEqualTo("User");
        assertThat(json.readTree(((PutObject) planner.plan(Events.user(USER, 1_001)).changes().get(0)).json()).has("displayName"))
                .as("an absent optional field stays absent").isFalse();
    }

    @Test
    void boardCreatedPutsTheBoardAndTheOwnersMapping() {
        EventPlanner.Plan plan = planner.plan(Events.board(BOARD, USER, 2_000));
        assertThat(plan.needs()).isEmpty();
        assertThat(plan.changes()).element(1).isEqualTo(new PutMapping(Mapping.USER_HAS_BOARDS, USER, BOARD, 2_000));
    }

    @Test
    void aRepinIsAPinThatNamesItsParentAndCountsTowardsTheParentsRepins() throws Exception {
        EventPlanner.Plan plan = planner.plan(Events.repin(PIN2, PIN, BOARD, USER, 3_000));
        assertThat(plan.needs()).as("the count needs no parent row").containsExactly(CanonicalRef.object(CanonicalLayout.BOARDS, BOARD));
        assertThat(plan.changes()).hasSize(4);
        JsonNode data = json.readTree(((PutObject) plan.changes().get(0)).json());
        assertThat(data.get("parentPinId").asLong()).isEqualTo(PIN);
        assertThat(data.get("details").asText()).isEqualTo("details of " + PIN);
        assertThat(plan.changes()).element(3).isEqualTo(new PutMapping(Mapping.PIN_HAS_REPINS, PIN, PIN2, 3_000));
        assertThat(plan.changes().get(3).placedBy()).as("on the parent's shard").containsExactly(PIN);
        assertThat(json.readTree(((PutObject) planner.plan(Events.pin(PIN, BOARD, USER, 3_000)).changes().get(0)).json()).has("parentPinId"))
                .as("an original pin has none").isFalse();
        assertThatThrownBy(() -> planner.plan(Events.repin(PIN2, BOARD, BOARD, USER, 3_000)))
                .isInstanceOf(RejectedRecordException.class).hasMessageContaining("parentPinId");
    }

    @Test
    void anInterestIsAnObjectAndAPinsInterestsAreInItsJsonAndMappedOnEachInterestsShard() throws Exception {
        long wood = Events.id(ObjectType.INTEREST, 5, 16);
        long clay = Events.id(ObjectType.INTEREST, 6, 17);
        EventPlanner.Plan created = planner.plan(new dev.pinfeed.events.InterestCreated(1L, Instant.ofEpochMilli(500), wood, "woodworking"));
        assertThat(created.needs()).isEmpty();
        PutObject interest = (PutObject) created.changes().get(0);
        assertThat(interest.table()).isEqualTo(CanonicalLayout.INTERESTS);
        assertThat(json.readTree(interest.json()).get("name").asText()).isEqualTo("woodworking");

        dev.pinfeed.events.PinCreated tagged = Events.pin(PIN, BOARD, USER, 3_000);
        tagged.setInterestIds(List.of(clay, wood, clay));
        EventPlanner.Plan plan = planner.plan(tagged);
        assertThat(plan.needs()).as("the mapping rows wait for no interest").containsExactly(CanonicalRef.object(CanonicalLayout.BOARDS, BOARD));
        JsonNode data = json.readTree(((PutObject) plan.changes().get(0)).json());
        assertThat(data.get("interests").toString()).as("each once, in order").isEqualTo("[" + clay + "," + wood + "]");
        assertThat(plan.changes().subList(3, 5)).containsExactly(new PutMapping(Mapping.INTEREST_HAS_PINS, clay, PIN, 3_000),
                new PutMapping(Mapping.INTEREST_HAS_PINS, wood, PIN, 3_000));
        tagged.setInterestIds(List.of(BOARD));
        assertThatThrownBy(() -> planner.plan(tagged)).isInstanceOf(RejectedRecordException.class).hasMessageContaining("interestIds");

        dev.pinfeed.events.PinDeleted deleted = Events.deleted(PIN, BOARD, USER, 4_000);
        deleted.setInterestIds(List.of(wood, clay));
        assertThat(planner.plan(deleted).changes()).as("the interests' rows made inactive").endsWith(
                new DeactivateMapping(Mapping.INTEREST_HAS_PINS, wood, PIN, 4_000), new DeactivateMapping(Mapping.INTEREST_HAS_PINS, clay, PIN, 4_000));
    }

    @Test
    void pinCreatedNeedsItsBoardAndMapsTheBoardAndTheAuthor() throws Exception {
        EventPlanner.Plan plan = planner.plan(Events.pin(PIN, BOARD, USER, 3_000));
        assertThat(plan.needs()).containsExactly(CanonicalRef.object(CanonicalLayout.BOARDS, BOARD));
        assertThat(plan.changes()).hasSize(3);
        JsonNode data = json.readTree(((PutObject) plan.changes().get(0)).json());
        assertThat(data.get("boardId").asLong()).isEqualTo(BOARD);
        assertThat(data.get("authorId").asLong()).isEqualTo(USER);
        assertThat(data.get("details").asText()).isEqualTo("details of " + PIN);
        assertThat(data.get("imageUrl").asText()).endsWith("/" + PIN);
        assertThat(data.has("active")).isFalse();
        assertThat(plan.changes().subList(1, 3)).containsExactly(new PutMapping(Mapping.BOARD_HAS_PINS, BOARD, PIN, 3_000),
                new PutMapping(Mapping.USER_HAS_PINS, USER, PIN, 3_000));
    }

    @Test
    void pinDeletedSoftDeletesWithoutNeedingAnything() {
        EventPlanner.Plan plan = planner.plan(Events.deleted(PIN, BOARD, USER, 4_000));
        assertThat(plan.needs()).isEmpty();
        assertThat(plan.changes()).containsExactly(new DeletePin(PIN, BOARD, USER, 4_000),
                new DeactivateMapping(Mapping.BOARD_HAS_PINS, BOARD, PIN, 4_000), new DeactivateMapping(Mapping.USER_HAS_PINS, USER, PIN, 4_000));
    }

    @Test
    void likesAndUnlikesAreOneLastWriterWinsEdgeThatNeedsThePin() {
        var liked = Events.liked(USER, PIN, 5_000);
        EventPlanner.Plan plan = planner.plan(liked);
        assertThat(plan.needs()).containsExactly(CanonicalRef.object(CanonicalLayout.PINS, PIN));
        assertThat(plan.changes()).containsExactly(new PutLike(USER, PIN, true, 5_000, liked.getEventId()));
        var unliked = Events.unliked(USER, PIN, 5_001);
        assertThat(planner.plan(unliked).changes()).containsExactly(new PutLike(USER, PIN, false, 5_001, unliked.getEventId()));
        assertThat(new PutLike(USER, PIN, false, 5_001, 1).version()).as("occurredAt first, then eventId")
                .isEqualTo(CanonicalLayout.version(5_001, 1));
    }

    @Test
    void commentCreatedNeedsItsPinAndMapsThePinToTheComment() throws Exception {
        EventPlanner.Plan plan = planner.plan(Events.commented(COMMENT, PIN, USER, 7_000));
        assertThat(plan.needs()).containsExactly(CanonicalRef.object(CanonicalLayout.PINS, PIN));
        assertThat(plan.changes()).hasSize(2);
        PutObject put = (PutObject) plan.changes().get(0);
        assertThat(put.table()).isEqualTo(CanonicalLayout.COMMENTS);
        assertThat(put.id()).isEqualTo(COMMENT);
        assertThat(put.occurredAtMillis()).isEqualTo(7_000);
        JsonNode data = json.readTree(put.json());
        assertThat(data.get("id").asLong()).isEqualTo(COMMENT);
        assertThat(data.get("createdAt").asLong()).isEqualTo(7_000);
        assertThat(data.get("pinId").asLong()).isEqualTo(PIN);
        assertThat(data.get("authorId").asLong()).isEqualTo(USER);
        assertThat(data.get("text").asText()).isEqualTo("comment " + COMMENT);
        assertThat(data.has("active")).isFalse();
        assertThat(plan.changes().get(1)).isEqualTo(new PutMapping(Mapping.PIN_HAS_COMMENTS, PIN, COMMENT, 7_000));
        assertThat(plan.changes().get(1).shards()).as("on the pin's shard").containsExactly(7);
    }

    @Test
    void commentDeletedSoftDeletesWithoutNeedingAnything() {
        EventPlanner.Plan plan = planner.plan(Events.uncommented(COMMENT, PIN, USER, 8_000));
        assertThat(plan.needs()).isEmpty();
        assertThat(plan.changes()).containsExactly(new DeleteComment(COMMENT, PIN, USER, 8_000),
                new DeactivateMapping(Mapping.PIN_HAS_COMMENTS, PIN, COMMENT, 8_000));
    }

    @Test
    void commentIdsOfTheWrongTypeAreInvalid() {
        assertThatThrownBy(() -> planner.plan(Events.commented(PIN2, PIN, USER, 1)))
                .isInstanceOfSatisfying(RejectedRecordException.class, r -> {
                    assertThat(r.reason()).isEqualTo(DeadLetters.INVALID);
                    assertThat(r.getMessage()).contains("commentId").contains("is a pin id");
                });
        assertThatThrownBy(() -> planner.plan(Events.uncommented(COMMENT, BOARD, USER, 1)))
                .isInstanceOfSatisfying(RejectedRecordException.class, r -> assertThat(r.getMessage()).contains("pinId"));
    }

    @Test
    void aReorderNeedsItsBoardAndEveryListedPinsRowAndKeepsAPinsFirstPlace() {
        var e = Events.reordered(BOARD, USER, 6_000, List.of(PIN2, PIN, PIN2));
        EventPlanner.Plan plan = planner.plan(e);
        assertThat(plan.changes()).containsExactly(new ReorderBoard(BOARD, List.of(PIN2, PIN), 6_000, e.getEventId()));
        assertThat(plan.needs()).containsExactly(CanonicalRef.object(CanonicalLayout.BOARDS, BOARD),
                CanonicalRef.mapping(Mapping.BOARD_HAS_PINS, BOARD, PIN2), CanonicalRef.mapping(Mapping.BOARD_HAS_PINS, BOARD, PIN));
    }

    @Test
    void otherEventsAreUnexpectedAndIdsOfTheWrongTypeAreInvalid() {
        assertThatThrownBy(() -> planner.plan(new UserFollowed(1L, Instant.EPOCH, USER, USER, USER)))
                .isInstanceOfSatisfying(RejectedRecordException.class, r -> assertThat(r.reason()).isEqualTo(DeadLetters.UNEXPECTED_EVENT));
        assertThatThrownBy(() -> planner.plan(Events.pin(PIN, PIN2, USER, 1)))
                .isInstanceOfSatisfying(RejectedRecordException.class, r -> {
                    assertThat(r.reason()).isEqualTo(DeadLetters.INVALID);
                    assertThat(r.getMessage()).contains("boardId").contains("is a pin id");
                });
        assertThatThrownBy(() -> planner.plan(Events.liked(-5L, PIN, 1)))
                .isInstanceOfSatisfying(RejectedRecordException.class, r -> assertThat(r.reason()).isEqualTo(DeadLetters.INVALID));
    }

    @Test
    void everyChangeSaysWhichCacheKeysItMakesStale() {
        List<CanonicalChange> pinCreate = planner.plan(Events.pin(PIN, BOARD, USER, 3_000)).changes();
        assertThat(pinCreate.get(0).invalidations()).singleElement().satisfies(i -> {
            assertThat(i.objectId()).isEqualTo(PIN);
            assertThat(i.keys()).contains(dev.pinfeed.canonicalstore.CanonicalCacheKeys.pin(PIN));
        });
        assertThat(pinCreate.get(1).invalidations()).singleElement().satisfies(i -> assertThat(i.keys())
                .containsExactlyInAnyOrder(dev.pinfeed.canonicalstore.CanonicalCacheKeys.boardPins(BOARD, "newest"),
                        dev.pinfeed.canonicalstore.CanonicalCacheKeys.boardPins(BOARD, "custom")));
        assertThat(planner.plan(Events.liked(USER, PIN, 1)).changes().get(0).invalidations()).singleElement()
                .satisfies(i -> assertThat(i.keys()).containsExactly(dev.pinfeed.canonicalstore.CanonicalCacheKeys.pinLikes(PIN)));
        for (var event : List.of(Events.commented(COMMENT, PIN, USER, 1), Events.uncommented(COMMENT, PIN, USER, 2))) {
            List<CanonicalChange> changes = planner.plan(event).changes();
            assertThat(changes.get(0).invalidations()).as("the comment's JSON").singleElement().satisfies(i -> {
                assertThat(i.objectId()).isEqualTo(COMMENT);
                assertThat(i.keys()).containsExactly(dev.pinfeed.canonicalstore.CanonicalCacheKeys.comment(COMMENT));
            });
            assertThat(changes.get(1).invalidations()).as("the pin's comment count").singleElement().satisfies(i -> {
                assertThat(i.objectId()).isEqualTo(PIN);
                assertThat(i.keys()).containsExactly(dev.pinfeed.canonicalstore.CanonicalCacheKeys.pinComments(PIN));
            });
        }
    }
}
