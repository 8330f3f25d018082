package dev.pinfeed.ingestapi.core;

import dev.pinfeed.ingestapi.fakes.InMemoryIdempotencyStore;
import dev.pinfeed.ingestapi.fakes.InMemoryObjectDirectory;
import dev.pinfeed.ingestapi.fakes.InMemoryUsernameIndex;
import dev.pinfeed.ingestapi.fakes.RecordingEventPublisher;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Nested;

/** The unit-test fakes pass the same contracts as the real stores (see the *IT twins). */
class FakeStoresTest {

    private static final AtomicLong NEXT = new AtomicLong(1);

    @Nested
    class Directory extends ObjectDirectoryContract {
        private final InMemoryObjectDirectory directory = new InMemoryObjectDirectory();
        protected ObjectDirectory directory() { return directory; }
        protected long freshLocalId() { return NEXT.incrementAndGet(); }
    }

    @Nested
    class Usernames extends UsernameIndexContract {
        private final InMemoryUsernameIndex index = new InMemoryUsernameIndex();
        protected UsernameIndex index() { return index; }
        protected String freshUsername() { return "user_" + NEXT.incrementAndGet(); }
    }

    @Nested
    class Idempotency extends IdempotencyStoreContract {
        private final AtomicLong now = new AtomicLong(1_000_000);
        private final InstantSource clock = () -> Instant.ofEpochMilli(now.get());
        private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock);
        protected IdempotencyStore store() { return store; }
        protected String freshKey() { return "key-" + NEXT.incrementAndGet(); }
        protected void elapse(Duration d) { now.addAndGet(d.toMillis()); }
    }

    @Nested
    class Publisher extends EventPublisherContract {
        private final RecordingEventPublisher publisher = new RecordingEventPublisher();
        protected EventPublisher publisher() { return publisher; }
        protected List<SpecificRecord> publishedPins(int atLeast) { return publisher.published(); }
    }
}
