package dev.pinfeed.infra.stacktestkit.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The stack's registry process, over its REST API exactly as a Confluent client would use it. */
@ExtendWith(StackExtension.class)
class SchemaRegistrySmokeIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static final String V1 = "{\"type\":\"record\",\"name\":\"Smoke\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}";
    private static final String V2_OPTIONAL = "{\"type\":\"record\",\"name\":\"Smoke\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},"
            + "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null}]}";
    private static final String V3_REQUIRED = "{\"type\":\"record\",\"name\":\"Smoke\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},"
            + "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null},{\"name\":\"owner\",\"type\":\"long\"}]}";

    /** {@code Basic ...} of the stack's registry credentials, or null for none. */
    private String authorization;

    private HttpResponse<String> call(String method, String url, Object body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/vnd.schemaregistry.v1+json");
        if (authorization != null) b.header("Authorization", authorization);
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void registersFetchesByIdAndRejectsAnIncompatibleSchema(TestStack stack) throws Exception {
        String base = stack.config().schemaRegistryUrl().replaceAll("/$", "");
        String subject = stack.uniqueName("smoke") + "-value";
        assertThat(call("GET", base + "/subjects", null).statusCode()).as("the stack's registry answers only its user").isEqualTo(401);
        String credentials = stack.config().require("schema.registry.basic-auth.user") + ":" + stack.config().require("schema.registry.basic-auth.password");
        authorization = "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));

        HttpResponse<String> v1 = call("POST", base + "/subjects/" + subject + "/versions", Map.of("schema", V1));
        assertThat(v1.statusCode()).isEqualTo(200);
        int id1 = JSON.readTree(v1.body()).get("id").asInt();

        HttpResponse<String> byId = call("GET", base + "/schemas/ids/" + id1, null);
        assertThat(byId.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(JSON.readTree(byId.body()).get("schema").asText())).isEqualTo(JSON.readTree(V1));

        HttpResponse<String> v2 = call("POST", base + "/subjects/" + subject + "/versions", Map.of("schema", V2_OPTIONAL));
        assertThat(v2.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(v2.body()).get("id").asInt()).isNotEqualTo(id1);

        HttpResponse<String> v3 = call("POST", base + "/subjects/" + subject + "/versions", Map.of("schema", V3_REQUIRED));
        assertThat(v3.statusCode()).isEqualTo(409);
        assertThat(JSON.readTree(v3.body()).get("error_code").asInt()).isEqualTo(409);

        JsonNode versions = JSON.readTree(call("GET", base + "/subjects/" + subject + "/versions", null).body());
        assertThat(versions).hasSize(2);
    }
}
