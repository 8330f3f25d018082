package dev.pinfeed.ingestapi.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinDeleted;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** What every {@link EventPublisher} must do; run against the recording fake and real Kafka. */
public abstract class EventPublisherContract {

    protected abstract EventPublisher publisher();

    /** Every event published so far to the pins topic under test, in log order, waiting up to a few seconds for {@code atLeast}. */
    protected abstract List<SpecificRecord> publishedPins(int atLeast) throws Exception;

    @Test
    void acknowledgedEventsAreReadableInOrderPerKey() throws Exception {
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        List<SpecificRecord> sent = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            PinCreated created = PinCreated.newBuilder().setEventId(i * 2L).setOccurredAt(Instant.ofEpochMilli(1_000 + i))
                    .setActorId(7).setPinId(1000 + i).setBoardId(55).setAuthorId(7).setDetails("pin " + i).build();
            PinDeleted deleted = PinDeleted.newBuilder().setEventId(i * 2L + 1).setOccurredAt(Instant.ofEpochMilli(2_000 + i))
                    .setActorId(7).setPinId(1000 + i).setBoardId(55).setAuthorId(7).build();
            sent.add(created);
            sent.add(deleted);
            acks.add(publisher().publish(created));
            acks.add(publisher().publish(deleted));
        }
        for (CompletableFuture<Void> ack : acks) ack.get(30, TimeUnit.SECONDS);

        List<SpecificRecord> read = publishedPins(sent.size());

        assertThat(read).containsExactlyInAnyOrderElementsOf(sent);
        for (int i = 1; i <= 20; i++) {
            long pinId = 1000 + i;
            List<Object> ofPin = read.stream().filter(r -> pinIdOf(r) == pinId).map(r -> (Object) r.getClass()).toList();
            assertThat(ofPin).as("pin %d's create precedes its delete", pinId).containsExactly(PinCreated.class, PinDeleted.class);
        }
    }

    private static long pinIdOf(SpecificRecord r) {
        return r instanceof PinCreated c ? c.getPinId() : ((PinDeleted) r).getPinId();
    }
}
