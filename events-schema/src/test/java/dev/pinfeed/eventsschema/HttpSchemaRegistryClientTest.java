package dev.pinfeed.eventsschema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Basic auth as the client sends it, against a stub registry in this JVM that wants {@code reader:s3cret}. */
class HttpSchemaRegistryClientTest {

    private static final String EXPECTED = "Basic cmVhZGVyOnMzY3JldA=="; // base64("reader:s3cret")

    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private HttpServer stub;
    private String url;

    @BeforeEach
    void start() throws IOException {
        stub = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        stub.createContext("/", exchange -> {
            try (exchange) {
                String authorization = exchange.getRequestHeaders().getFirst("Authorization");
                authorizations.add(String.valueOf(authorization));
                boolean allowed = EXPECTED.equals(authorization);
                byte[] body = (allowed ? "{\"schema\": \"\\\"long\\\"\"}" : "{\"error_code\": 401, \"message\": \"Unauthorized\"}")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(allowed ? 200 : 401, body.length);
                exchange.getResponseBody().write(body);
            }
        });
        stub.start();
        url = "http://127.0.0.1:" + stub.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        stub.stop(0);
    }

    private PinfeedConfig config(String... keysAndValues) {
        Properties p = new Properties();
        p.setProperty("schema.registry.url", url);
        for (int i = 0; i < keysAndValues.length; i += 2) p.setProperty(keysAndValues[i], keysAndValues[i + 1]);
        return PinfeedConfig.of(p);
    }

    @Test
    void sendsBasicAuthWhenUserAndPasswordAreConfigured() {
        SchemaRegistryClient client = HttpSchemaRegistryClient.from(config(
                HttpSchemaRegistryClient.BASIC_AUTH_USER_KEY, "reader", HttpSchemaRegistryClient.BASIC_AUTH_PASSWORD_KEY, "s3cret"));

        assertThat(client.schemaById(1)).isEqualTo(Schema.create(Schema.Type.LONG));
        assertThat(authorizations).containsExactly(EXPECTED);
    }

    @Test
    void sendsNoCredentialsWhenNoneAreConfiguredAndARefusalIsAnOutageNotAPoisonRecord() {
        SchemaRegistryClient client = HttpSchemaRegistryClient.from(config());

        assertThatThrownBy(() -> client.schemaById(1)).isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("HTTP 401").hasMessageContaining(HttpSchemaRegistryClient.BASIC_AUTH_USER_KEY);
        assertThat(authorizations).containsExactly("null");
    }

    @Test
    void aUserWithoutAPasswordIsAConfigurationError() {
        assertThatThrownBy(() -> HttpSchemaRegistryClient.from(config(HttpSchemaRegistryClient.BASIC_AUTH_USER_KEY, "reader")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("schema.registry.basic-auth.password is not set");
    }
}
