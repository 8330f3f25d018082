package dev.pinfeed.eventsschema;

import dev.pinfeed.events.BoardCreated;
import dev.pinfeed.events.BoardFollowed;
import dev.pinfeed.events.BoardPinsReordered;
import dev.pinfeed.events.BoardUnfollowed;
import dev.pinfeed.events.CommentCreated;
import dev.pinfeed.events.CommentDeleted;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.InterestCreated;
import dev.pinfeed.events.InterestFollowed;
import dev.pinfeed.events.InterestUnfollowed;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.PinUnliked;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.events.UserFollowed;
import dev.pinfeed.events.UserUnfollowed;

import java.util.HashMap;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * The one place that knows which topic each event goes to and what its partition key is. Events
 * that must stay in order relative to each other share a topic and a key (Kafka orders per
 * partition only), which is why several event types share a topic.
 */
public final class EventTopics {

    public static final String USERS = "pinfeed.users.v1";
    public static final String BOARDS = "pinfeed.boards.v1";
    public static final String PINS = "pinfeed.pins.v1";
    public static final String FOLLOWS = "pinfeed.follows.v1";
    public static final String LIKES = "pinfeed.likes.v1";
    public static final String COMMENTS = "pinfeed.comments.v1";
    public static final String INTERESTS = "pinfeed.interests.v1";
    /** Internal: fanout-streams' output, feed-worker's input: each pin's first chunk. */
    public static final String FANOUT = "pinfeed.fanout.v1";

    private record Route(String topic, ToLongFunction<SpecificRecord> key) {}

    private static final Map<Class<?>, Route> ROUTES = new HashMap<>();

    static {
        route(UserCreated.class, USERS, UserCreated::getUserId);
        route(BoardCreated.class, BOARDS, BoardCreated::getBoardId);
        route(BoardPinsReordered.class, BOARDS, BoardPinsReordered::getBoardId);
        // Keyed by pin so a pin's create and delete land in one partition, in order.
        route(PinCreated.class, PINS, PinCreated::getPinId);
        route(PinDeleted.class, PINS, PinDeleted::getPinId);
        // Keyed by follower so one user's follow and unfollow of the same target stay in order.
        route(UserFollowed.class, FOLLOWS, UserFollowed::getFollowerId);
        route(UserUnfollowed.class, FOLLOWS, UserUnfollowed::getFollowerId);
        route(BoardFollowed.class, FOLLOWS, BoardFollowed::getFollowerId);
        route(BoardUnfollowed.class, FOLLOWS, BoardUnfollowed::getFollowerId);
        route(InterestFollowed.class, FOLLOWS, InterestFollowed::getFollowerId);
        route(InterestUnfollowed.class, FOLLOWS, InterestUnfollowed::getFollowerId);
        route(PinLiked.class, LIKES, PinLiked::getPinId);
        route(PinUnliked.class, LIKES, PinUnliked::getPinId);
        // Keyed by pin, like likes: a comment's create and delete (and all of one pin's comments) stay in order.
        route(CommentCreated.class, COMMENTS, CommentCreated::getPinId);
        route(CommentDeleted.class, COMMENTS, CommentDeleted::getPinId);
        route(InterestCreated.class, INTERESTS, InterestCreated::getInterestId);
        // Keyed by pin: a pin's ADD and REMOVE chunks stay in order; different pins spread over partitions.
        route(FanoutChunk.class, FANOUT, FanoutChunk::getPinId);
    }

    private EventTopics() {}

    private static <T extends SpecificRecord> void route(Class<T> type, String topic, ToLongFunction<T> key) {
        ROUTES.put(type, new Route(topic, record -> key.applyAsLong(type.cast(record))));
    }

    /**
     * The bulk lane of a fan-out chunk topic: a pin's chunks 1, 2, … (its first, chunk 0, stays on
     * {@code chunkTopic}). The worker reads the lanes in separate loops, so a big author's
     * thousands of chunks never queue ahead of other pins' first chunks (every pin of up to one chunk
     * of receivers travels the fast lane only).
     */
    public static String bulkLaneOf(String chunkTopic) {
        return chunkTopic + ".bulk";
    }

    /** The topic {@code event} is published to. */
    public static String topicFor(SpecificRecord event) {
        return routeOf(event).topic();
    }

    /** The record key: the decimal id of the entity whose events must stay in order. */
    public static String partitionKey(SpecificRecord event) {
        return Long.toString(routeOf(event).key().applyAsLong(event));
    }

    /**
     * The registry subject of a record schema on a topic, Confluent's TopicRecordNameStrategy
     * ({@code <topic>-<record full name>}): each event type on a shared topic keeps its own
     * compatibility history.
     */
    public static String subjectFor(String topic, Schema recordSchema) {
        return topic + "-" + recordSchema.getFullName();
    }

    private static Route routeOf(SpecificRecord event) {
        Route route = ROUTES.get(event.getClass());
        if (route == null) {
            throw new IllegalArgumentException("no topic for event type " + event.getClass().getName());
        }
        return route;
    }
}
