package dev.pinfeed.ingestapi.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.events.PinCreated;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.IngestComponents;
import dev.pinfeed.ingestapi.core.IngestCommand;
import dev.pinfeed.ingestapi.core.IngestRejection;
import dev.pinfeed.ingestapi.core.IngestService.Outcome;
import dev.pinfeed.ingestapi.kafka.FreshTopics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The Java producer client against the real stores: same ids, checks and topics as the HTTP API. */
@ExtendWith(StackExtension.class)
class EmbeddedIngestIT {

    @Test
    void publishesTypedCommandsInBatchesToKafka(TestStack stack) throws Exception {
        FreshTopics topics = new FreshTopics(stack);
        IngestComponents components = new IngestComponents(stack.config(), topics.overrides(), stack.keyPrefix("producer"), new Properties());
        try (EmbeddedIngest producer = new EmbeddedIngest(components.service()::submitAll, components, 1000, Duration.ofMillis(5), 3,
                Duration.ofMillis(100))) {
            String name = "p" + Long.toString(stack.freshId(), 36);
            Outcome user = producer.send(new IngestCommand.CreateUser(name, "Producer")).join();
            assertThat(user.accepted()).isTrue();
            assertThat(producer.send(new IngestCommand.CreateUser(name, null)).join().rejection().reason())
                    .isEqualTo(IngestRejection.Reason.CONFLICT);
            long board = producer.send(new IngestCommand.CreateBoard(user.createdId(), "Java", null)).join().createdId();
            List<IngestCommand> pins = new ArrayList<>();
            for (int i = 0; i < 500; i++) pins.add(new IngestCommand.CreatePin(board, user.createdId(), "pin " + i, null, null));

            List<Outcome> outcomes = producer.sendAll(pins);

            assertThat(outcomes).allMatch(Outcome::accepted);
            List<PinCreated> published = topics.events(502, Duration.ofSeconds(30)).stream()
                    .filter(PinCreated.class::isInstance).map(PinCreated.class::cast).toList();
            assertThat(published).hasSize(500);
            assertThat(published).extracting(PinCreated::getPinId)
                    .containsExactlyInAnyOrderElementsOf(outcomes.stream().map(Outcome::createdId).toList());
        }
    }
}
