package dev.pinfeed.httpkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

/**
 * An HTTP service on the JDK's built-in server: routes plus the shared request pipeline
 * (route → shed → auth → body limit → media type → handler), problem documents, {@code GET /health},
 * {@code GET /metrics} and {@code GET /openapi.json}. Build with {@link #builder(String)}, run with
 * {@link #start(String, int)}.
 */
public final class HttpApp {

    /** Latency buckets of {@code http_request_duration_seconds}, 0.5 ms .. 5 s. */
    static final double[] LATENCY_BUCKETS = {0.0001, 0.00025, 0.0005, 0.00075, 0.001, 0.0015, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5};
    static final String HEALTH = "/health";
    static final String METRICS = "/metrics";
    static final String OPENAPI = "/openapi.json";

    private static final Pattern METHOD = Pattern.compile("[A-Z]+");

    final String serviceName;
    final Router router;
    final Authenticator authenticator;
    final int maxInFlight;
    final int handlerThreads;
    final Metrics metrics;
    final HealthRunner health;
    final byte[] openApi;
    final Metrics.Counter requestsTotal;
    final Metrics.Histogram requestDuration;
    private final List<RunningHttpApp> running = new CopyOnWriteArrayList<>();

    private HttpApp(Builder b, Metrics metrics) {
        this.serviceName = b.serviceName;
        this.authenticator = b.authenticator;
        this.maxInFlight = b.maxInFlight;
        this.handlerThreads = b.handlerThreads;
        this.metrics = metrics;
        this.health = new HealthRunner(serviceName, b.healthChecks, b.healthTimeout);
        this.openApi = b.openApiResource == null ? null : loadOpenApi(b.openApiResource);
        this.router = new Router();
        for (Builder.RouteSpec spec : b.routes) {
            router.add(spec.method, spec.template, spec.options, spec.handler, false);
        }
        RouteOptions builtIn = RouteOptions.publicRead();
        router.add("GET", HEALTH, builtIn, request -> health.run(), true);
        router.add("GET", METRICS, builtIn, request -> Response.text(200, Metrics.CONTENT_TYPE, metrics.scrape()), true);
        router.add("GET", OPENAPI, builtIn, request -> {
            if (openApi == null) {
                throw new ProblemException(Problem.notFound(null, "this service publishes no OpenAPI document"));
            }
            return Response.bytes(200, Response.JSON, openApi);
        }, true);
        for (Router.Route route : router.routes()) {
            if (route.options().authRequired() && authenticator == null) {
                throw new IllegalStateException("route " + route.method() + " " + route.template()
                        + " requires authentication but no authenticator(...) was configured");
            }
        }
        this.requestsTotal = metrics.counter("http_requests_total", "HTTP requests answered, by route template and status.",
                "service", "route", "method", "status");
        this.requestDuration = metrics.histogram("http_request_duration_seconds",
                "HTTP request latency from receipt until the response is handed to the server, by route template.",
                LATENCY_BUCKETS, "service", "route", "method");
        metrics.gauge("http_in_flight_requests", "HTTP requests admitted to the handler pool (queued or running).",
                Map.of("service", serviceName), () -> running.stream().mapToInt(RunningHttpApp::inFlight).sum());
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

    /** Every served route in registration order, the built-in {@code GET /health}, {@code /metrics}, {@code /openapi.json} last. */
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

    public Metrics metrics() {
        return metrics;
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
        private Authenticator authenticator;
        private int maxInFlight = 256;
        private int handlerThreads = 16;
        private Metrics metrics;
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
            if (List.of(HEALTH, METRICS, OPENAPI).contains("/" + path)) {
                throw new IllegalArgumentException(pathTemplate + " is a built-in route");
            }
            routes.add(new RouteSpec(m, pathTemplate, options, handler));
            return this;
        }

        public Builder authenticator(Authenticator authenticator) {
            this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
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

        /** Threads running auth, body reading and handlers; default 16. */
        public Builder handlerThreads(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("handlerThreads must be >= 1: " + n);
            }
            this.handlerThreads = n;
            return this;
        }

        /** Where the HTTP metrics go (and what {@code GET /metrics} serves); default a new {@link Metrics}. */
        public Builder metrics(Metrics metrics) {
            this.metrics = Objects.requireNonNull(metrics, "metrics");
            return this;
        }

        /** Adds checks named by {@link HealthCheck#name()}, or {@code check-N} when that is null. */
        public Builder health(HealthCheck... checks) {
            for (HealthCheck check : checks) {
                Objects.requireNonNull(check, "check");
                String name = check.name() != null ? check.name() : "check-" + (healthChecks.size() + 1);
                healthCheck(name, check);
            }
            return this;
        }

        public Builder healthCheck(String name, HealthCheck check) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("a health check needs a name");
            }
            Objects.requireNonNull(check, "check");
            if (!healthNames.add(name)) {
                throw new IllegalArgumentException("duplicate health check " + name);
            }
            healthChecks.add(new HealthRunner.NamedCheck(name, check));
            return this;
        }

        /** How long {@code GET /health} waits for the checks (they run in parallel); default 2 s. */
        public Builder healthTimeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("healthTimeout must be positive: " + timeout);
            }
            this.healthTimeout = timeout;
            return this;
        }

        /** A classpath resource served at {@code GET /openapi.json}; loaded and JSON-checked by {@link #build()}. */
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
            return new HttpApp(this, metrics != null ? metrics : new Metrics());
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
