package dev.pinfeed.ingestapi;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.httpkit.HealthCheck;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.ingestapi.core.IdempotencyStore;
import dev.pinfeed.ingestapi.core.IdempotentIngest;
import dev.pinfeed.ingestapi.core.IngestService;
import dev.pinfeed.ingestapi.http.IngestHttpApi;
import dev.pinfeed.ingestapi.http.JsonCommands;
import dev.pinfeed.ingestapi.http.TokenAuthenticator;
import dev.pinfeed.processorruntime.ProcessMain;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;

/**
 * The ingest-api process: {@code ingest.http} (host:port) serves the contract's write side,
 * tokens come from {@code ingest.tokens-file}. Runs on {@link ProcessMain}: quiet logging, named
 * start steps that fail with one line, and on SIGTERM the HTTP app stops first, then the stores.
 */
public final class IngestApiServer {

    public static final String NAME = "ingest-api";
    public static final String HTTP = "ingest.http";
    public static final String TOKENS_FILE = "ingest.tokens-file";
    public static final String MAX_IN_FLIGHT = "ingest.max-in-flight";
    public static final String HANDLER_THREADS = "ingest.handler-threads";
    /**
     * How long a stop waits for the requests in flight (ms): a batch claims names, writes directory rows and publishes in
     * turn, and cut halfway by the stores closing it left names claimed for users never published. Within the launcher's
     * 8 s stop grace.
     */
    public static final String STOP_DRAIN_MS = "ingest.stop-drain-ms";

    private IngestApiServer() {}

    /** The HTTP app over {@code components}, with its own meter registry (tests, the load harness); the caller starts and closes it. */
    public static HttpApp app(PinfeedConfig config, IngestComponents components, TokenAuthenticator tokens) {
        return app(config, components, tokens, Meters.newRegistry());
    }

    /** The HTTP app over {@code components}, its meters (and /metrics) in {@code meters}. */
    public static HttpApp app(PinfeedConfig config, IngestComponents components, TokenAuthenticator tokens, PrometheusMeterRegistry meters) {
        return app(config, components.service(), components.idempotency(), components.healthChecks(), tokens, meters);
    }

    /**
     * The HTTP app over any ingest service and idempotency store: the real adapters, or the in-memory
     * fakes of the test-jar (no server needed). {@code healthChecks} are the readiness checks by name.
     */
    public static HttpApp app(PinfeedConfig config, IngestService service, IdempotencyStore idempotency,
                              Map<String, HealthCheck> healthChecks, TokenAuthenticator tokens, PrometheusMeterRegistry meters) {
        return builder(config, service, idempotency, healthChecks, tokens, meters).build();
    }

    private static HttpApp.Builder builder(PinfeedConfig config, IngestService service, IdempotencyStore idempotency,
                                           Map<String, HealthCheck> healthChecks, TokenAuthenticator tokens, PrometheusMeterRegistry meters) {
        HttpApp.Builder app = HttpApp.builder(NAME)
                .authenticator(tokens)
                .maxInFlight(config.getInt(MAX_IN_FLIGHT, 256))
                .handlerThreads(config.getInt(HANDLER_THREADS, 32))
                .stopDrain(java.time.Duration.ofMillis(config.getInt(STOP_DRAIN_MS, 5000)))
                .meterRegistry(meters)
                .openApiResource("/openapi/ingest-api.json");
        healthChecks.forEach(app::healthCheck);
        new IngestHttpApi(service, new IdempotentIngest(idempotency), meters).routes(app);
        return app;
    }

    public static void main(String[] args) {
        ProcessMain.run(NAME, ctx -> {
            PinfeedConfig config = ctx.config();
            HostPort http = config.hostPort(HTTP);
            TokenAuthenticator tokens = ctx.step("reading the token file",
                    () -> TokenAuthenticator.load(Path.of(config.require(TOKENS_FILE)), JsonCommands.eventTypes()));
            CuratorFramework zk = ctx.step("connecting to ZooKeeper " + config.appZookeeper(), ctx::curator);
            // Registered before the HTTP app, so they close after it: no request runs on closed stores.
            IngestComponents components = ctx.closeOnExit(ctx.step("opening the stores (MySQL shards, Kafka, Redis)",
                    () -> IngestComponents.forProcess(config, zk)));
            components.bindMetrics(ctx.meters());
            // /metrics and what is failing are served on the admin address ({@code ingest-api.admin.http}), not to producers.
            components.healthChecks().forEach(ctx::readiness);
            ctx.step("serving the admin endpoint", ctx::serveAdmin);
            RunningHttpApp running = ctx.closeOnExit(ctx.step("serving HTTP on " + http,
                    () -> builder(config, components.service(), components.idempotency(), components.healthChecks(), tokens, ctx.meters())
                            .adminSeparately().build().start(http.host(), http.port())));
            ctx.describe("http " + running.baseUri());
        });
    }
}
