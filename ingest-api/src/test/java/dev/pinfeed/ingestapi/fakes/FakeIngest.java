package dev.pinfeed.ingestapi.fakes;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.idallocator.InMemorySequenceStore;
import dev.pinfeed.idallocator.OpenShards;
import dev.pinfeed.idallocator.ShardPlacement;
import dev.pinfeed.idallocator.ShardedIdAllocator;
import dev.pinfeed.idallocator.TimeSortableIdGenerator;
import dev.pinfeed.idallocator.TimeSortableLayout;
import dev.pinfeed.ingestapi.IngestApiServer;
import dev.pinfeed.ingestapi.core.CachingObjectDirectory;
import dev.pinfeed.ingestapi.core.IdSource;
import dev.pinfeed.ingestapi.core.IngestService;
import dev.pinfeed.ingestapi.http.TokenAuthenticator;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;

/**
 * The ingest pipeline over the in-memory fakes, no server anywhere: the service, its stores (public,
 * to inspect or to make fail) and the HTTP app over them.
 */
public final class FakeIngest {

    public final InMemoryObjectDirectory directory = new InMemoryObjectDirectory();
    public final InMemoryUsernameIndex usernames = new InMemoryUsernameIndex();
    public final InMemoryUsernameIndex interestNames = new InMemoryUsernameIndex();
    public final RecordingEventPublisher publisher = new RecordingEventPublisher();
    public final InMemoryIdempotencyStore idempotency;
    public final IngestService service;

    public FakeIngest(InstantSource clock) {
        this.idempotency = new InMemoryIdempotencyStore(clock);
        this.service = new IngestService(
                new IdSource(new ShardedIdAllocator(new InMemorySequenceStore(), 100),
                        new ShardPlacement(OpenShards.parse("0-15"), new SplittableRandom(1)),
                        TimeSortableIdGenerator.systemClock(new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH), Duration.ZERO), 1),
                new CachingObjectDirectory(directory, 1000, Duration.ofSeconds(5), clock), usernames, publisher, clock, Duration.ofSeconds(5),
                () -> 4096, dev.pinfeed.ingestapi.core.PinContents.NONE, interestNames);
    }

    /** ingest-api's HTTP app over these fakes (default settings, no readiness checks). */
    public HttpApp app(TokenAuthenticator tokens) {
        return IngestApiServer.app(PinfeedConfig.of(new Properties()), service, idempotency, Map.of(), tokens, Meters.newRegistry());
    }
}
