package dev.pinfeed.infra.stack;

import dev.pinfeed.config.PinfeedConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The dev schema registry (module infra/schema-registry): Confluent REST API over a compacted topic. With
 * {@code schema.registry.basic-auth.user} and {@code .password} configured (the local stack's {@link DevSecrets}) it
 * answers only that user: its {@code --basic-auth-file} is written from them, and its health is probed as that user.
 */
final class SchemaRegistrySpec implements ServerSpec {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    private final StackLayout layout;
    private final URI url;
    private final String kafkaBootstrap;
    /** {@code user:password}, or null for a registry open to anyone. */
    private final String basicAuth;

    /** {@code kafkaBootstrap}: the broker's listener the registry keeps its schemas through. */
    SchemaRegistrySpec(StackLayout layout, PinfeedConfig config, String kafkaBootstrap) {
        this.layout = layout;
        String u = config.schemaRegistryUrl();
        this.url = URI.create(u.endsWith("/") ? u : u + "/");
        this.kafkaBootstrap = kafkaBootstrap;
        Optional<String> user = config.find("schema.registry.basic-auth.user");
        this.basicAuth = user.map(name -> name + ":" + config.require("schema.registry.basic-auth.password")).orElse(null);
    }

    private Path usersFile() {
        return layout.home().resolve("run").resolve("schema-registry-users");
    }

    @Override
    public void writeFiles() {
        if (basicAuth == null) return;
        StackLayout.ensure(usersFile().getParent());
        AtomicFiles.writePrivate(usersFile(), basicAuth + "\n");
    }

    @Override public String name() { return "schema-registry"; }
    @Override public String role() { return "Schema registry (Confluent REST API)"; }
    @Override public String endpoint() { return url.toString(); }
    @Override public Path logFile() { return layout.logFile(name() + ".out"); }

    @Override
    public List<String> command() {
        List<String> args = new ArrayList<>(List.of("--host", url.getHost(), "--port", String.valueOf(url.getPort()), "--bootstrap", kafkaBootstrap));
        if (basicAuth != null) args.addAll(List.of("--basic-auth-file", usersFile().toString()));
        // A few subjects in memory: the serial collector's structures are a megabyte where G1's are tens.
        return JavaCommand.withHeap("128m", JvmCollector.SERIAL)
                .run(layout.classpathOf("infra/schema-registry"), "dev.pinfeed.infra.schemaregistry.SchemaRegistryServer", args.toArray(String[]::new));
    }

    @Override
    public boolean healthy() {
        try {
            HttpRequest.Builder probe = HttpRequest.newBuilder(url.resolve("subjects")).timeout(Duration.ofSeconds(2));
            if (basicAuth != null) probe.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(basicAuth.getBytes(StandardCharsets.UTF_8)));
            HttpResponse<Void> r = HTTP.send(probe.build(), HttpResponse.BodyHandlers.discarding());
            return r.statusCode() == 200;
        } catch (Exception e) {
            return false;
        }
    }
}
