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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
            new CachingObjectDirectory(new InMemoryObjectDirectory(), 10_000, Duration.ofSeconds(5), Clock.systemUTC()),
            new InMemoryUsernameIndex(), publisher, Clock.systemUTC(), Duration.ofSeconds(5), 4096);
    /** A batch that waits in the submitter until released, keeping the dispatcher busy meanwhile. */
    private record Hold(CountDownLatch entered, CountDownLatch released) {}

    /** While set, the next batch submitted takes it and waits for its release. */
    private volatile Hold hold;
    private final EmbeddedIngest producer = new EmbeddedIngest(batch -> {
        synchronized (batchSizes) {
            batchSizes.add(batch.size());
        }
        Hold h = hold;
        if (h != null) {
            hold = null;
            h.entered().countDown();
            try {
                if (!h.released().await(30, TimeUnit.SECONDS)) throw new IllegalStateException("held batch never released (test)");
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
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
    void queuedCommandsAreSentInBatchesAndAnsweredInOrder() throws Exception {
        long owner = producer.send(new IngestCommand.CreateUser("batch_owner", null)).join().createdId();
        long board = producer.send(new IngestCommand.CreateBoard(owner, "b", null)).join().createdId();
        List<IngestCommand> pins = new ArrayList<>();
        for (int i = 0; i < 250; i++) pins.add(new IngestCommand.CreatePin(board, owner, "pin " + i, null, null));
        // All 250 are queued while the dispatcher is busy with a batch of its own, so how they are batched does not
        // depend on how fast this thread queues them against the 100 ms linger (no real clock decides the test).
        Hold h = new Hold(new CountDownLatch(1), new CountDownLatch(1));
        hold = h;
        CompletableFuture<Outcome> held = producer.send(new IngestCommand.CreateUser("batch_holder", null));
        assertThat(h.entered().await(30, TimeUnit.SECONDS)).as("the dispatcher took the holding batch").isTrue();
        List<CompletableFuture<Outcome>> queued = pins.stream().map(producer::send).toList(); // what sendAll does first
        h.released().countDown();

        List<Outcome> outcomes = queued.stream().map(CompletableFuture::join).toList();

        assertThat(held.join().accepted()).isTrue();
        assertThat(outcomes).allMatch(Outcome::accepted);
        assertThat(publisher.published(PinCreated.class)).extracting(p -> p.getDetails().toString())
                .containsExactlyElementsOf(pins.stream().map(c -> ((IngestCommand.CreatePin) c).details()).toList());
        // Owner, board and the holding batch, then the 250 queued behind it: the dispatcher takes them 100 at a time.
        assertThat(batchSizes.subList(3, batchSizes.size())).containsExactly(100, 100, 50);

        // sendAll queues its commands and answers them in order.
        List<IngestCommand> more = List.of(new IngestCommand.CreatePin(board, owner, "more 0", null, null),
                new IngestCommand.CreatePin(board, owner, "more 1", null, null));
        assertThat(producer.sendAll(more)).allMatch(Outcome::accepted).extracting(Outcome::createdId)
                .containsExactlyElementsOf(publisher.published(PinCreated.class).stream().skip(250).map(PinCreated::getPinId).toList());
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
