package dev.pinfeed.ingestapi.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.idallocator.InMemorySequenceStore;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.OpenShards;
import dev.pinfeed.idallocator.ShardPlacement;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.idallocator.ShardedIdAllocator;
import dev.pinfeed.idallocator.TimeSortableIdGenerator;
import dev.pinfeed.idallocator.TimeSortableLayout;
import dev.pinfeed.ingestapi.core.CachingObjectDirectory;
import dev.pinfeed.ingestapi.core.IdSource;
import dev.pinfeed.ingestapi.core.IngestCommand;
import dev.pinfeed.ingestapi.core.IngestRejection;
import dev.pinfeed.ingestapi.core.IngestRejection.Reason;
import dev.pinfeed.ingestapi.core.IngestService;
import dev.pinfeed.ingestapi.core.IngestService.Outcome;
import dev.pinfeed.ingestapi.fakes.InMemoryObjectDirectory;
import dev.pinfeed.ingestapi.fakes.InMemoryUsernameIndex;
import dev.pinfeed.ingestapi.fakes.RecordingEventPublisher;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EmbeddedIngestTest {

    private final RecordingEventPublisher publisher = new RecordingEventPublisher();
    private final List<Integer> batchSizes = new ArrayList<>();
    private final IngestService service = new IngestService(
            new IdSource(new ShardedIdAllocator(new InMemorySequenceStore(), 1000),
                    new ShardPlacement(OpenShards.parse("0-7"), new SplittableRandom(2)),
                    TimeSortableIdGenerator.systemClock(new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH), Duration.ZERO), 1),
            new CachingObjectDirectory(new InMemoryObjectDirectory(), 10_000),
            new InMemoryUsernameIndex(), publisher, Clock.systemUTC(), Duration.ofSeconds(5), 4096);
    private final EmbeddedIngest producer = new EmbeddedIngest(batch -> {
        synchronized (batchSizes) {
            batchSizes.add(batch.size());
        }
        return service.submitAll(batch);
    }, null, 100, Duration.ofMillis(100), 3, Duration.ofMillis(1));

    @AfterEach
    void close() {
        producer.close();
    }

    @Test
    void invalidCommandsCannotBeBuiltWithTheSameRulesAsHttp() {
        assertThatThrownBy(() -> new IngestCommand.CreateUser("Not Valid", null))
                .isInstanceOfSatisfying(IngestRejection.class, r -> assertThat(r.field()).isEqualTo("username"));
        long user = ShardedId.compose(1, ObjectType.USER, 1);
        assertThatThrownBy(() -> new IngestCommand.CreatePin(user, user, "d", null, null))
                .isInstanceOfSatisfying(IngestRejection.class, r -> assertThat(r.field()).isEqualTo("boardId"));
    }

    @Test
    void queuedCommandsAreSentInBatchesAndAnsweredInOrder() {
        long owner = producer.send(new IngestCommand.CreateUser("batch_owner", null)).join().createdId();
        long board = producer.send(new IngestCommand.CreateBoard(owner, "b", null)).join().createdId();
        List<IngestCommand> pins = new ArrayList<>();
        for (int i = 0; i < 250; i++) pins.add(new IngestCommand.CreatePin(board, owner, "pin " + i, null, null));

        List<Outcome> outcomes = producer.sendAll(pins);

        assertThat(outcomes).allMatch(Outcome::accepted);
        assertThat(publisher.published(PinCreated.class)).extracting(p -> p.getDetails().toString())
                .containsExactlyElementsOf(pins.stream().map(c -> ((IngestCommand.CreatePin) c).details()).toList());
        // sendAll queues all 250 at once: the dispatcher takes them 100 at a time.
        assertThat(batchSizes.subList(2, batchSizes.size())).containsExactly(100, 100, 50);
    }

    @Test
    void failuresBeforePublishingAreRetriedButUnconfirmedPublishesAreNot() {
        AtomicInteger attempts = new AtomicInteger();
        publisher.failWith = e -> e instanceof UserCreated && attempts.incrementAndGet() <= 2
                ? new IngestRejection(Reason.OVERLOADED, null, "buffer full") : null;

        Outcome retried = producer.send(new IngestCommand.CreateUser("retried", null)).join();

        assertThat(retried.accepted()).isTrue();
        assertThat(attempts.get()).isEqualTo(3);

        publisher.failWith = e -> e instanceof UserCreated ? new TimeoutException("no ack") : null;
        Outcome unconfirmed = producer.send(new IngestCommand.CreateUser("unconfirmed", null)).join();
        assertThat(unconfirmed.rejection().reason()).isEqualTo(Reason.UNCONFIRMED);
        assertThat(publisher.published(UserCreated.class)).extracting(u -> u.getUsername().toString()).containsExactly("retried");
    }
}
