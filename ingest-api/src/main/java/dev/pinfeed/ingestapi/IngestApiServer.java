package dev.pinfeed.ingestapi;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.ingestapi.http.IngestHttpApi;
import dev.pinfeed.ingestapi.http.JsonCommands;
import dev.pinfeed.ingestapi.http.TokenAuthenticator;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingest-api process: {@code ingest.http} (host:port) serves the contract's write side,
 * tokens come from {@code ingest.tokens-file}. Stops cleanly on SIGTERM.
 */
public final class IngestApiServer {

    public static final String HTTP = "ingest.http";
    public static final String TOKENS_FILE = "ingest.tokens-file";
    public static final String MAX_IN_FLIGHT = "ingest.max-in-flight";
    public static final String HANDLER_THREADS = "ingest.handler-threads";
    private static final Logger LOG = LoggerFactory.getLogger(IngestApiServer.class);
    /** How long a first request owns its Idempotency-Key: well over the worst request (publish timeout 30 s + MySQL). */
    static final Duration IDEMPOTENCY_LEASE = Duration.ofSeconds(120);

    private IngestApiServer() {}

    /** Builds the HTTP app over {@code components}; the caller starts and closes it. */
    public static HttpApp app(PinfeedConfig config, IngestComponents components, TokenAuthenticator tokens) {
        PrometheusMeterRegistry meters = Meters.newRegistry();
        HttpApp.Builder app = HttpApp.builder("ingest-api")
                .authenticator(tokens)
                .maxInFlight(config.getInt(MAX_IN_FLIGHT, 256))
                .handlerThreads(config.getInt(HANDLER_THREADS, 32))
                .meterRegistry(meters)
                .openApiResource("/openapi/ingest-api.json");
        components.healthChecks().forEach((name, check) -> app.healthCheck(name, check::run));
        new IngestHttpApi(components.service(), components.idempotency(), IDEMPOTENCY_LEASE, Duration.ofHours(24), meters)
                .routes(app);
        return app.build();
    }

    public static void main(String[] args) throws InterruptedException {
        PinfeedConfig config = PinfeedConfig.load();
        HostPort http = config.hostPort(HTTP);
        RunningHttpApp running;
        IngestComponents components;
        try {
            TokenAuthenticator tokens = TokenAuthenticator.load(Path.of(config.require(TOKENS_FILE)), JsonCommands.eventTypes());
            components = IngestComponents.fromConfig(config);
            running = app(config, components, tokens).start(http.host(), http.port());
        } catch (RuntimeException e) {
            System.err.println("ingest-api: " + e.getMessage());
            System.exit(2);
            return;
        }
        LOG.info("ingest-api listening on {}", running.baseUri());
        CountDownLatch stopped = new CountDownLatch(1);
        IngestComponents toClose = components;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            running.close();
            toClose.close();
            stopped.countDown();
        }, "ingest-api-shutdown"));
        stopped.await();
    }
}
