package dev.pinfeed.materializer;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.events.BoardCreated;
import dev.pinfeed.events.BoardPinsReordered;
import dev.pinfeed.events.CommentCreated;
import dev.pinfeed.events.CommentDeleted;
import dev.pinfeed.events.InterestCreated;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.PinUnliked;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.eventsschema.EventTopics;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * The six topics the canonical store is built from, by role; each defaults to its
 * {@link EventTopics} name and can be overridden ({@code materializer.topic.users} etc.) so tests and
 * rebuilds read their own topics.
 */
public record MaterializerTopics(String users, String boards, String pins, String likes, String comments, String interests) {

    public static MaterializerTopics defaults() {
        return new MaterializerTopics(EventTopics.USERS, EventTopics.BOARDS, EventTopics.PINS, EventTopics.LIKES, EventTopics.COMMENTS,
                EventTopics.INTERESTS);
    }

    public static MaterializerTopics from(PinfeedConfig config) {
        MaterializerTopics d = defaults();
        return new MaterializerTopics(config.get("materializer.topic.users", d.users), config.get("materializer.topic.boards", d.boards),
                config.get("materializer.topic.pins", d.pins), config.get("materializer.topic.likes", d.likes),
                config.get("materializer.topic.comments", d.comments), config.get("materializer.topic.interests", d.interests));
    }

    public List<String> all() {
        return List.of(users, boards, pins, likes, comments, interests);
    }

    /** Whether {@code event} belongs on {@code topic} (a record of another type is dead-lettered as unexpected). */
    public boolean carries(String topic, SpecificRecord event) {
        if (topic.equals(users)) return event instanceof UserCreated;
        if (topic.equals(boards)) return event instanceof BoardCreated || event instanceof BoardPinsReordered;
        if (topic.equals(pins)) return event instanceof PinCreated || event instanceof PinDeleted;
        if (topic.equals(likes)) return event instanceof PinLiked || event instanceof PinUnliked;
        if (topic.equals(comments)) return event instanceof CommentCreated || event instanceof CommentDeleted;
        if (topic.equals(interests)) return event instanceof InterestCreated;
        return false;
    }
}
