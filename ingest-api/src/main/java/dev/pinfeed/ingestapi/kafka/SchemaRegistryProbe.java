package dev.pinfeed.ingestapi.kafka;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.httpkit.HealthCheck;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The readiness of the schema registry the publisher serializes through: {@code GET /subjects}
 * answers 200 within 2 s, else {@link StoreUnavailableException} naming {@code schema-registry}.
 * One client for all probes (readiness may be polled every few seconds).
 */
public final class SchemaRegistryProbe {

    private final String baseUrl;
    private final Optional<String> authorization;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** The registry of {@code config}, with its credentials if any ({@link HttpSchemaRegistryClient#authorization}). */
    public SchemaRegistryProbe(PinfeedConfig config) {
        this.baseUrl = config.schemaRegistryUrl();
        this.authorization = HttpSchemaRegistryClient.authorization(config);
    }

    public void check() {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + "/subjects")).timeout(Duration.ofSeconds(2));
            authorization.ifPresent(value -> request.header("Authorization", value));
            HttpResponse<Void> r = http.send(request.build(), HttpResponse.BodyHandlers.discarding());
            if (r.statusCode() != 200) {
                throw new StoreUnavailableException(HttpSchemaRegistryClient.STORE, "GET /subjects answered HTTP " + r.statusCode());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException(HttpSchemaRegistryClient.STORE, "interrupted", e);
        } catch (IOException e) {
            throw new StoreUnavailableException(HttpSchemaRegistryClient.STORE, "unreachable at " + baseUrl + ": " + e.getMessage(), e);
        }
    }

    /** This store's readiness check, by name. */
    public Map<String, HealthCheck> healthChecks() {
        return Map.of(HttpSchemaRegistryClient.STORE, this::check);
    }
}
