package dev.pinfeed.infra.stack;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** The dev schema registry (module infra/schema-registry): Confluent REST API over a compacted topic. */
final class SchemaRegistrySpec implements ServerSpec {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    private final StackLayout layout;
    private final URI url;
    private final String kafkaBootstrap;

    SchemaRegistrySpec(StackLayout layout, String url, String kafkaBootstrap) {
        this.layout = layout;
        this.url = URI.create(url.endsWith("/") ? url : url + "/");
        this.kafkaBootstrap = kafkaBootstrap;
    }

    @Override public String name() { return "schema-registry"; }
    @Override public String role() { return "Schema registry (Confluent REST API)"; }
    @Override public String endpoint() { return url.toString(); }
    @Override public Path logFile() { return layout.logFile(name() + ".out"); }

    @Override
    public List<String> command() {
        return JavaCommand.withHeap("128m")
                .run(layout.classpathOf("infra/schema-registry"), "dev.pinfeed.infra.schemaregistry.SchemaRegistryServer",
                        "--host", url.getHost(), "--port", String.valueOf(url.getPort()), "--bootstrap", kafkaBootstrap);
    }

    @Override
    public boolean healthy() {
        try {
            HttpResponse<Void> r = HTTP.send(HttpRequest.newBuilder(url.resolve("subjects")).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding());
            return r.statusCode() == 200;
        } catch (Exception e) {
            return false;
        }
    }
}
