package dev.pinfeed.eventsschema;

import dev.pinfeed.events.BoardCreated;
import dev.pinfeed.events.BoardFollowed;
import dev.pinfeed.events.BoardPinsReordered;
import dev.pinfeed.events.BoardUnfollowed;
import dev.pinfeed.events.CommentCreated;
import dev.pinfeed.events.CommentDeleted;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.PinUnliked;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.events.UserFollowed;
import dev.pinfeed.events.UserUnfollowed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.specific.SpecificRecordBase;
import org.junit.jupiter.api.Test;

class EventTopicsTest {

    /** Expected topic and key per event type, written out rather than derived from EventTopics. */
    private static final Map<String, String> TOPIC_AND_KEY = Map.ofEntries(
            Map.entry("UserCreated", "pinfeed.users.v1 10"),
            Map.entry("BoardCreated", "pinfeed.boards.v1 20"),
            Map.entry("BoardPinsReordered", "pinfeed.boards.v1 50"),
            Map.entry("PinCreated", "pinfeed.pins.v1 30"),
            Map.entry("PinDeleted", "pinfeed.pins.v1 40"),
            Map.entry("UserFollowed", "pinfeed.follows.v1 60"),
            Map.entry("UserUnfollowed", "pinfeed.follows.v1 70"),
            Map.entry("FanoutChunk", "pinfeed.fanout.v1 120"),
            Map.entry("BoardFollowed", "pinfeed.follows.v1 80"),
            Map.entry("BoardUnfollowed", "pinfeed.follows.v1 90"),
            Map.entry("PinLiked", "pinfeed.likes.v1 101"),
            Map.entry("PinUnliked", "pinfeed.likes.v1 111"),
            Map.entry("CommentCreated", "pinfeed.comments.v1 131"),
            Map.entry("CommentDeleted", "pinfeed.comments.v1 141"),
            Map.entry("InterestCreated", "pinfeed.interests.v1 150"),
            Map.entry("InterestFollowed", "pinfeed.follows.v1 160"),
            Map.entry("InterestUnfollowed", "pinfeed.follows.v1 170"));

    @Test
    void samplesCoverEverySchema() {
        SampleEvents.assertCoversEverySchema();
    }

    @Test
    void routesEveryEventToItsTopicAndKey() {
        Map<String, String> actual = SampleEvents.all().stream().collect(Collectors.toMap(
                e -> e.getSchema().getName(),
                e -> EventTopics.topicFor(e) + " " + EventTopics.partitionKey(e)));
        assertThat(actual).isEqualTo(TOPIC_AND_KEY);
    }

    @Test
    void createAndDeleteOfOnePinShareTheKey() {
        var at = java.time.Instant.EPOCH;
        PinCreated created = new PinCreated(1L, at, 2L, 777L, 3L, 2L, "d", null, null, null, java.util.List.of());
        PinDeleted deleted = new PinDeleted(4L, at, 2L, 777L, 3L, 2L, java.util.List.of());
        assertThat(EventTopics.topicFor(deleted)).isEqualTo(EventTopics.topicFor(created));
        assertThat(EventTopics.partitionKey(deleted)).isEqualTo(EventTopics.partitionKey(created)).isEqualTo("777");
    }

    @Test
    void aCommentsCreateAndDeleteShareTheirPinsKey() {
        var at = java.time.Instant.EPOCH;
        CommentCreated created = new CommentCreated(1L, at, 2L, 900L, 777L, 2L, "hi");
        CommentDeleted deleted = new CommentDeleted(4L, at, 2L, 900L, 777L, 2L);
        assertThat(EventTopics.topicFor(deleted)).isEqualTo(EventTopics.topicFor(created)).isEqualTo(EventTopics.COMMENTS);
        assertThat(EventTopics.partitionKey(deleted)).isEqualTo(EventTopics.partitionKey(created)).isEqualTo("777");
    }

    @Test
    void subjectIsTopicThenRecordFullName() {
        Schema schema = PinCreated.getClassSchema();
        assertThat(EventTopics.subjectFor(EventTopics.PINS, schema)).isEqualTo("pinfeed.pins.v1-dev.pinfeed.events.PinCreated");
    }

    @Test
    void refusesAnEventTypeItDoesNotKnow() {
        SpecificRecord stranger = new SpecificRecordBase() {
            @Override public Schema getSchema() { return Schema.createRecord("Stranger", null, "x", false, java.util.List.of()); }
            @Override public Object get(int field) { return null; }
            @Override public void put(int field, Object value) {}
        };
        assertThatThrownBy(() -> EventTopics.partitionKey(stranger)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no topic for event type");
    }
}
