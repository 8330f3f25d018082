package dev.pinfeed.infra.stack;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One of pinfeed's own services (ingest-api, feed-service, the stream processors), run from its
 * module's built classpath. Only {@code ./pinfeed dev} starts apps; the test stack is servers only
 * (tests run the services in-process).
 */
final class AppSpec implements ServerSpec {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    private final StackLayout layout;
    private final String name;
    private final String role;
    private final String module;
    private final String mainClass;
    private final URI baseUrl;
    private final Map<String, String> properties;

    AppSpec(StackLayout layout, String name, String role, String module, String mainClass, URI baseUrl, Map<String, String> properties) {
        this.layout = layout;
        this.name = name;
        this.role = role;
        this.module = module;
        this.mainClass = mainClass;
        this.baseUrl = baseUrl;
        this.properties = Map.copyOf(properties);
    }

    @Override public String name() { return name; }
    @Override public String role() { return role; }
    /** A stream processor has no URL; it is healthy while its process runs. */
    @Override public String endpoint() { return baseUrl == null ? "(Kafka consumer)" : baseUrl.toString(); }

    /** The apps accept the dev token: make sure it and the token file exist before any app starts. */
    @Override
    public void prepare() {
        DevToken.ensure(layout);
    }

    @Override
    public List<String> command() {
        JavaCommand java = JavaCommand.withHeap("256m")
                .logTo(layout.logsDir().resolve(name + ".log"), "INFO", Log4jConfig.write(layout))
                .property("pinfeed.root", layout.root());
        properties.forEach(java::property);
        return java.run(layout.classpathOf(module), mainClass);
    }

    /** Answers HTTP at all (its /health may be 503 while a dependency is down; that is the app's to report). */
    @Override
    public boolean healthy() {
        if (baseUrl == null) return true;
        try {
            HttpResponse<Void> r = HTTP.send(HttpRequest.newBuilder(baseUrl.resolve("/health")).timeout(Duration.ofSeconds(3)).build(),
                    HttpResponse.BodyHandlers.discarding());
            return r.statusCode() == 200 || r.statusCode() == 503;
        } catch (Exception e) {
            return false;
        }
    }

    @Override
    public Duration startTimeout() {
        return Duration.ofSeconds(60);
    }

    @Override
    public Duration stopGrace() {
        return Duration.ofSeconds(20);
    }
}
