package dev.pinfeed.operations.verify.index;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.operations.verify.canonical.TopicHistory;
import dev.pinfeed.operations.verify.index.IndexCheck.Created;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The UserCreated events of given users in the users topic, read from offset 0 to its end as of the
 * call (no consumer group): the users the materializer has not written yet, whose claims are right.
 */
final class UsersTopic {

    private final PinfeedConfig config;
    private final String topic;

    UsersTopic(PinfeedConfig config, String topic) {
        this.config = config;
        this.topic = topic;
    }

    String name() {
        return topic;
    }

    /**
     * The UserCreated events of {@code userIds}; records that do not decode (the materializer dead-letters
     * them) are passed over. {@code eachRecord} runs once per record read.
     */
    List<Created> created(Set<Long> userIds, Runnable eachRecord) {
        AvroEventDeserializer decoder = AvroEventDeserializer.from(config);
        List<Created> out = new ArrayList<>();
        TopicHistory.read(config, List.of(topic), (t, record) -> {
            eachRecord.run();
            if (record.value() == null) return;
            SpecificRecord event;
            try {
                event = decoder.deserialize(t, record.value());
            } catch (SerializationException undecodable) {
                return; // anything else (the registry down) fails the check: a claim is never judged on a topic half read
            }
            if (event instanceof UserCreated u && userIds.contains(u.getUserId())) out.add(new Created(u.getUserId(), u.getUsername()));
        });
        return out;
    }
}
