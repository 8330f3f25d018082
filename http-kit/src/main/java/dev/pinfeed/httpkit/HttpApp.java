package dev.pinfeed.httpkit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

/**
 * An HTTP service on Jetty 12 (core API, no servlets): routes plus the shared request pipeline
 * (route → shed → auth → body limit → media type → handler), problem documents, {@code GET /health},
 * {@code /health/live}, {@code /health/ready}, {@code GET /metrics}, {@code GET /openapi.json} and Swagger UI
 * over it at {@code GET /docs}. Build with {@link #builder(String)}, run with {@link #start(String, int)}.
 */
public final class HttpApp {

    /** Latency buckets of {@code http_request_duration_seconds}, 0.1 ms .. 5 s. */
    static final double[] LATENCY_BUCKETS = {0.0001, 0.00025, 0.0005, 0.00075, 0.001, 0.0015, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5};
    static final String HEALTH = "/health";
    static final String LIVE = "/health/live";
    static final String READY = "/health/ready";
    static final String METRICS = "/metrics";
    static final String OPENAPI = "/openapi.json";
    static final String DOCS = SwaggerUi.PAGE;
    static final String DOCS_FILE = SwaggerUi.FILE;
    private static final List<String> BUILT_IN = List.of(HEALTH, LIVE, READY, METRICS, OPENAPI, DOCS, DOCS_FILE);

    private static final Pattern METHOD = Pattern.compile("[A-Z]+");

    final String serviceName;
    final Router router;
    final Authenticator authenticator;
    final PrincipalRateLimiter rateLimiter;
    final int maxInFlight;
    final int handlerThreads;
    /** How long {@code close()} waits for in-flight requests before interrupting them. */
    final Duration stopDrain;
    final ServerLimits limits;
    final PrometheusMeterRegistry registry;
    final HealthRunner readiness;
    final HealthRunner liveness;
    final byte[] openApi;
    private final SwaggerUi docs;
    final Meter.MeterProvider<Counter> requestsTotal;
    final Meter.MeterProvider<Timer> requestDuration;
    private final List<RunningHttpApp> running = new CopyOnWriteArrayList<>();

    private HttpApp(Builder b, PrometheusMeterRegistry registry) {
        this.serviceName = b.serviceName;
        this.authenticator = b.authenticator;
        this.rateLimiter = b.rateLimiter;
        this.maxInFlight = b.maxInFlight;
        this.handlerThreads = b.handlerThreads;
        this.stopDrain = b.stopDrain;
        this.limits = b.limits;
        this.registry = registry;
        this.readiness = new HealthRunner(serviceName, b.healthChecks, b.healthTimeout);
        this.liveness = new HealthRunner(serviceName + "-live", b.livenessChecks, b.healthTimeout);
        this.openApi = b.openApiResource == null ? null : loadOpenApi(b.openApiResource);
        this.docs = openApi == null ? null : new SwaggerUi(serviceName);
        this.router = new Router();
        for (Builder.RouteSpec spec : b.routes) {
            router.add(spec.method, spec.template, spec.options, spec.handler, false);
        }
        RouteOptions builtIn = RouteOptions.publicRead();
        if (b.adminSeparately) {
            // Probes of a load balancer still get an answer; what is failing, and the metrics, are for the admin address.
            router.add("GET", LIVE, builtIn, request -> statusOnly(liveness.run()), true);
            router.add("GET", READY, builtIn, request -> statusOnly(readiness.run()), true);
        } else {
            router.add("GET", HEALTH, builtIn, request -> readiness.run(), true);
            router.add("GET", LIVE, builtIn, request -> liveness.run(), true);
            router.add("GET", READY, builtIn, request -> readiness.run(), true);
            router.add("GET", METRICS, builtIn, request -> Response.text(200, Meters.PROMETHEUS_CONTENT_TYPE, registry.scrape()), true);
        }
        router.add("GET", OPENAPI, builtIn, request -> {
            requireOpenApi();
            return Response.bytes(200, Response.JSON, openApi);
        }, true);
        router.add("GET", DOCS, builtIn, request -> {
            requireOpenApi();
            return docs.page();
        }, true);
        router.add("GET", DOCS_FILE, builtIn, request -> {
            requireOpenApi();
            return SwaggerUi.file(request.pathParam("file"));
        }, true);
        for (Router.Route route : router.routes()) {
            if (route.options().authRequired() && authenticator == null) {
                throw new IllegalStateException("route " + route.method() + " " + route.template()
                        + " requires authentication but no authenticator(...) was configured");
            }
        }
        this.requestsTotal = Counter.builder("http_requests_total")
                .description("HTTP requests answered, by route template and status.")
                .tag("service", serviceName)
                .withRegistry(registry);
        this.requestDuration = Timer.builder("http_request_duration")
                .description("HTTP request latency from receipt until the response is handed to the server, by route template.")
                .serviceLevelObjectives(Arrays.stream(LATENCY_BUCKETS).mapToObj(s -> Duration.ofNanos(Math.round(s * 1e9)))
                        .toArray(Duration[]::new))
                .tag("service", serviceName)
                .withRegistry(registry);
        Gauge.builder("http_in_flight_requests", running, apps -> apps.stream().mapToInt(RunningHttpApp::inFlight).sum())
                .description("HTTP requests admitted and not yet answered (reading their body, queued or running).")
                .tag("service", serviceName)
                .strongReference(true)
                .register(registry);
    }

    private void requireOpenApi() {
        if (openApi == null) {
            throw new ProblemException(Problem.notFound(null, "this service publishes no OpenAPI document"));
        }
    }

    private static Response statusOnly(Response health) {
        return Response.json(health.status(), Map.of("status", health.status() == 200 ? "up" : "down"));
    }

    /** Starts building the app of the named service ({@code service} label of the HTTP metrics). */
    public static Builder builder(String serviceName) {
        return new Builder(serviceName);
    }

    /**
     * Binds and serves. {@code port} 0 picks a free port ({@link RunningHttpApp#port()} tells which).
     *
     * @throws UncheckedIOException when the address cannot be bound
     */
    public RunningHttpApp start(String host, int port) {
        RunningHttpApp app = RunningHttpApp.start(this, host, port);
        running.add(app);
        return app;
    }

    void stopped(RunningHttpApp app) {
        running.remove(app);
    }

    /**
     * Every served route in registration order, the built-in {@code GET /health}, {@code /health/live},
     * {@code /health/ready}, {@code /metrics}, {@code /openapi.json}, {@code /docs}, {@code /docs/{file}} last
     * ({@code /health} and {@code /metrics} only without {@link Builder#adminSeparately()}).
     */
    public List<RouteInfo> routes() {
        return router.routes().stream().map(r -> new RouteInfo(r.method(), r.template())).toList();
    }

    /** The application's own routes, without the built-in ones. */
    public List<RouteInfo> applicationRoutes() {
        return router.routes().stream().filter(r -> !r.builtIn()).map(r -> new RouteInfo(r.method(), r.template())).toList();
    }

    public String serviceName() {
        return serviceName;
    }

    /** The registry {@code GET /metrics} serves; register the app's own meters here. */
    public PrometheusMeterRegistry meterRegistry() {
        return registry;
    }

    private static byte[] loadOpenApi(String resource) {
        String name = resource.startsWith("/") ? resource.substring(1) : resource;
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        InputStream found = context == null ? null : context.getResourceAsStream(name);
        if (found == null) {
            found = HttpApp.class.getClassLoader().getResourceAsStream(name);
        }
        if (found == null) {
            throw new IllegalStateException("OpenAPI resource not found on the classpath: " + resource);
        }
        try (InputStream in = found) {
            byte[] bytes = in.readAllBytes();
            Json.MAPPER.readTree(bytes); // fail fast on a broken document
            return bytes;
        } catch (IOException e) {
            throw new IllegalStateException("OpenAPI resource " + resource + " is not valid JSON: "
                    + Json.oneLine(e.getMessage(), 200), e);
        }
    }

    /** Collects routes and settings; {@link #build()} validates them. */
    public static final class Builder {
        private record RouteSpec(String method, String template, RouteOptions options, Handler handler) {
        }

        private final String serviceName;
        private final List<RouteSpec> routes = new ArrayList<>();
        private final List<HealthRunner.NamedCheck> healthChecks = new ArrayList<>();
        private final Set<String> healthNames = new HashSet<>();
        private final List<HealthRunner.NamedCheck> livenessChecks = new ArrayList<>();
        private final Set<String> livenessNames = new HashSet<>();
        private Authenticator authenticator;
        private PrincipalRateLimiter rateLimiter;
        private boolean adminSeparately;
        private int maxInFlight = 256;
        private int handlerThreads = 16;
        private Duration stopDrain = Duration.ofMillis(500);
        private ServerLimits limits = ServerLimits.DEFAULTS;
        private PrometheusMeterRegistry registry;
        private Duration healthTimeout = Duration.ofSeconds(2);
        private String openApiResource;

        private Builder(String serviceName) {
            if (serviceName == null || serviceName.isBlank()) {
                throw new IllegalArgumentException("serviceName must not be blank");
            }
            this.serviceName = serviceName;
        }

        /** A route with the default options: {@link RouteOptions#publicRead()} for GET, {@link RouteOptions#authenticated()} otherwise. */
        public Builder route(String method, String pathTemplate, Handler handler) {
            String m = normalizeMethod(method);
            return route(m, pathTemplate, RouteOptions.defaultFor(m), handler);
        }

        public Builder route(String method, String pathTemplate, RouteOptions options, Handler handler) {
            String m = normalizeMethod(method);
            Objects.requireNonNull(options, "options");
            Objects.requireNonNull(handler, "handler");
            Router.parse(pathTemplate); // validate now, at the caller's line
            String path = String.join("/", Router.split(pathTemplate, false));
            // All of /docs/..., not just the template: a literal /docs/x would shadow the built-in file route.
            if (BUILT_IN.contains("/" + path) || path.startsWith("docs/")) {
                throw new IllegalArgumentException(pathTemplate + " is a built-in route");
            }
            routes.add(new RouteSpec(m, pathTemplate, options, handler));
            return this;
        }

        public Builder authenticator(Authenticator authenticator) {
            this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
            return this;
        }

        /**
         * Leaves {@code /metrics} and {@code /health} (the checks' details) to an admin address served apart (a
         * process's admin endpoint over the same registry and checks): this app answers only {@code /health/live} and
         * {@code /health/ready} with a bare status, for probes, and {@code /openapi.json} and {@code /docs}.
         */
        public Builder adminSeparately() {
            this.adminSeparately = true;
            return this;
        }

        /** Authenticated callers over their rate are answered 429 (after authentication, before the body is read). */
        public Builder rateLimit(PrincipalRateLimiter limiter) {
            this.rateLimiter = Objects.requireNonNull(limiter, "limiter");
            return this;
        }

        /** Shed routes answer 429 once this many requests are in flight (queued or running); default 256. */
        public Builder maxInFlight(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxInFlight must be >= 1: " + n);
            }
            this.maxInFlight = n;
            return this;
        }

        /** Threads running the handlers (all but body-less public reads, which the server thread runs); default 16. */
        public Builder handlerThreads(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("handlerThreads must be >= 1: " + n);
            }
            this.handlerThreads = n;
            return this;
        }

        /**
         * How long {@code close()} waits for the requests in flight to be answered before it interrupts the handlers still
         * running; default 0.5 s. Meanwhile new requests are answered 503. A service whose requests write to several
         * stores in turn waits longer, so that a stop does not cut one halfway (the stores close after the app).
         */
        public Builder stopDrain(Duration drain) {
            if (drain == null || drain.isNegative()) throw new IllegalArgumentException("stopDrain must be >= 0: " + drain);
            this.stopDrain = drain;
            return this;
        }

        /**
         * Where the HTTP meters go and what {@code GET /metrics} serves; default {@link Meters#newRegistry()}. Pass
         * the process's one registry when it also runs other instrumented parts.
         */
        public Builder meterRegistry(PrometheusMeterRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
            return this;
        }

        /**
         * How long a request may take to arrive, from its first byte until its head and whole body are read;
         * default 10 s. Later, a request whose head is complete is answered 408, one whose head is not is closed.
         */
        public Builder requestReadTimeout(Duration timeout) {
            limits = limits.withRequestReadTimeout(positive("requestReadTimeout", timeout));
            return this;
        }

        /** How long a response write may make no progress (the client reads nothing) before it is abandoned; default 10 s. */
        public Builder responseWriteTimeout(Duration timeout) {
            limits = limits.withResponseWriteTimeout(positive("responseWriteTimeout", timeout));
            return this;
        }

        /** How long an idle keep-alive connection (no request in progress) stays open; default 30 s. */
        public Builder idleTimeout(Duration timeout) {
            limits = limits.withIdleTimeout(positive("idleTimeout", timeout));
            return this;
        }

        /** Maximum threads of the server pool (I/O, parsing, body-less public reads); default 64. */
        public Builder serverThreads(int n) {
            limits = limits.withServerThreads(n);
            return this;
        }

        /** Open connections at most; over it, accepting waits until one closes; default 4096. */
        public Builder maxConnections(int n) {
            limits = limits.withMaxConnections(n);
            return this;
        }

        /**
         * After a 413, how much of the rest of the upload is read and discarded (within the request-read timeout) so
         * a client that sends its whole body before reading still reads the answer; above it the connection is
         * closed. Default 16 MiB; 0 closes at once.
         */
        public Builder uploadDrainLimit(long bytes) {
            limits = limits.withUploadDrainLimit(bytes);
            return this;
        }

        /** Adds readiness checks named by {@link HealthCheck#name()}, or {@code check-N} when that is null. */
        public Builder health(HealthCheck... checks) {
            for (HealthCheck check : checks) {
                Objects.requireNonNull(check, "check");
                String name = check.name() != null ? check.name() : "check-" + (healthChecks.size() + 1);
                healthCheck(name, check);
            }
            return this;
        }

        /** A readiness check: a dependency probe of {@code GET /health/ready} (and {@code GET /health}). */
        public Builder healthCheck(String name, HealthCheck check) {
            return addCheck(healthChecks, healthNames, name, check);
        }

        /**
         * A liveness check of {@code GET /health/live}: something only a restart fixes (a wedged loop, a dead worker),
         * never a dependency. Without any, {@code /health/live} answers 200 while the process serves.
         */
        public Builder liveness(String name, HealthCheck check) {
            return addCheck(livenessChecks, livenessNames, name, check);
        }

        private Builder addCheck(List<HealthRunner.NamedCheck> checks, Set<String> names, String name, HealthCheck check) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("a health check needs a name");
            }
            Objects.requireNonNull(check, "check");
            if (!names.add(name)) {
                throw new IllegalArgumentException("duplicate health check " + name);
            }
            checks.add(new HealthRunner.NamedCheck(name, check));
            return this;
        }

        /** How long the health routes wait for their checks (they run in parallel); default 2 s. */
        public Builder healthTimeout(Duration timeout) {
            this.healthTimeout = positive("healthTimeout", timeout);
            return this;
        }

        /**
         * A classpath resource served at {@code GET /openapi.json}, and shown by Swagger UI at {@code GET /docs};
         * loaded and JSON-checked by {@link #build()}.
         */
        public Builder openApiResource(String classpathResource) {
            this.openApiResource = Objects.requireNonNull(classpathResource, "classpathResource");
            return this;
        }

        /**
         * @throws IllegalArgumentException on duplicate routes
         * @throws IllegalStateException    when an authenticated route has no authenticator, or the OpenAPI
         *                                  resource is missing or not JSON
         */
        public HttpApp build() {
            return new HttpApp(this, registry != null ? registry : Meters.newRegistry());
        }

        private static Duration positive(String what, Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException(what + " must be positive: " + timeout);
            }
            return timeout;
        }

        private static String normalizeMethod(String method) {
            if (method == null) {
                throw new IllegalArgumentException("method must not be null");
            }
            String m = method.trim().toUpperCase(Locale.ROOT);
            if (!METHOD.matcher(m).matches()) {
                throw new IllegalArgumentException("invalid HTTP method: " + method);
            }
            return m;
        }
    }
}
