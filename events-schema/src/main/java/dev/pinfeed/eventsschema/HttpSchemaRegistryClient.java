package dev.pinfeed.eventsschema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * {@link SchemaRegistryClient} over the Confluent REST API. Every call is a network round trip:
 * wrap it in {@link CachingSchemaRegistryClient} for use per record. Built {@link #from} a configuration
 * with a basic-auth user and password (Confluent's {@code basic.auth.user.info}), every request carries
 * {@code Authorization: Basic ...}.
 */
public final class HttpSchemaRegistryClient implements SchemaRegistryClient {

    /** The name outages are reported under (as the stack and /health call it). */
    public static final String STORE = "schema-registry";
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** Configuration keys of the registry's basic auth: both set, or neither (the password best from the environment). */
    public static final String BASIC_AUTH_USER_KEY = "schema.registry.basic-auth.user";
    public static final String BASIC_AUTH_PASSWORD_KEY = "schema.registry.basic-auth.password";

    private final String baseUrl;
    private final Optional<String> authorization;
    private final HttpClient http;
    private final ObjectMapper json = new ObjectMapper();

    /** {@code baseUrl} as in {@code PinfeedConfig.load().schemaRegistryUrl()}, e.g. {@code http://127.0.0.1:8081}; no credentials. */
    public HttpSchemaRegistryClient(String baseUrl) {
        this(baseUrl, Optional.empty());
    }

    private HttpSchemaRegistryClient(String baseUrl, Optional<String> authorization) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.authorization = authorization;
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    /** The registry of {@code config}: {@code schema.registry.url}, with basic auth when its user and password are set. */
    public static HttpSchemaRegistryClient from(PinfeedConfig config) {
        return new HttpSchemaRegistryClient(config.schemaRegistryUrl(), authorization(config));
    }

    /**
     * The {@code Authorization} header every request to the registry of {@code config} carries, if any: for
     * the few callers that speak to the registry without this client (a readiness probe, provisioning).
     */
    public static Optional<String> authorization(PinfeedConfig config) {
        Optional<String> user = config.find(BASIC_AUTH_USER_KEY);
        Optional<String> password = config.find(BASIC_AUTH_PASSWORD_KEY);
        if (user.isPresent() != password.isPresent()) {
            throw new IllegalStateException("configuration keys '" + BASIC_AUTH_USER_KEY + "' and '" + BASIC_AUTH_PASSWORD_KEY
                    + "' go together: " + (user.isPresent() ? BASIC_AUTH_PASSWORD_KEY : BASIC_AUTH_USER_KEY) + " is not set");
        }
        return user.map(u -> basicAuth(u, password.get()));
    }

    private static String basicAuth(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public int register(String subject, Schema schema) {
        return call("POST", "/subjects/" + encode(subject) + "/versions", Map.of("schema", schema.toString())).get("id").asInt();
    }

    @Override
    public Schema schemaById(int id) {
        String text = call("GET", "/schemas/ids/" + id, null).get("schema").asText();
        return new Schema.Parser().parse(text);
    }

    @Override
    public boolean isCompatible(String subject, Schema schema) {
        return call("POST", "/compatibility/subjects/" + encode(subject) + "/versions/latest", Map.of("schema", schema.toString()))
                .get("is_compatible").asBoolean();
    }

    @Override
    public void setCompatibility(String subject, String level) {
        call("PUT", "/config/" + encode(subject), Map.of("compatibility", level));
    }

    private JsonNode call(String method, String path, Object body) {
        try {
            HttpRequest.BodyPublisher publisher = body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body));
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                    .timeout(TIMEOUT)
                    .header("Accept", CONTENT_TYPE)
                    .header("Content-Type", CONTENT_TYPE)
                    .method(method, publisher);
            authorization.ifPresent(value -> request.header("Authorization", value));
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return answer(response);
        } catch (IOException e) {
            // Unreachable or timed out: an outage to wait out, not a refusal of the request.
            throw new StoreUnavailableException(STORE, method + " " + baseUrl + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during schema registry " + method + " " + path, e);
        }
    }

    private JsonNode answer(HttpResponse<String> response) throws IOException {
        int status = response.statusCode();
        JsonNode body = response.body().isBlank() ? json.nullNode() : json.readTree(response.body());
        if (status / 100 == 2) {
            return body;
        }
        if (status / 100 == 5) {
            throw new StoreUnavailableException(STORE, "HTTP " + status + ": " + response.body());
        }
        if (status == 401 || status == 403) {
            // Wrong or missing credentials are this process's fault, not the record's: wait (park), do not dead-letter.
            throw new StoreUnavailableException(STORE, "HTTP " + status + " (check " + BASIC_AUTH_USER_KEY + " and "
                    + BASIC_AUTH_PASSWORD_KEY + "): " + response.body());
        }
        // Confluent errors are {"error_code": ..., "message": ...}; a proxy in between may answer otherwise.
        int errorCode = body.path("error_code").asInt(status);
        String message = body.path("message").asText(response.body());
        throw new SchemaRegistryException(status, errorCode, message);
    }

    /** Subjects contain '.' and '-' (fine) but may be anything; path-encode them, spaces as %20. */
    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
