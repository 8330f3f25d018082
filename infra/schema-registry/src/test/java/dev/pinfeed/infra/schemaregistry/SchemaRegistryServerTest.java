package dev.pinfeed.infra.schemaregistry;

import static dev.pinfeed.infra.schemaregistry.AvroSchemas.USER_ID;
import static dev.pinfeed.infra.schemaregistry.AvroSchemas.USER_ID_NAME;
import static dev.pinfeed.infra.schemaregistry.AvroSchemas.USER_ID_NAME_AGE;
import static dev.pinfeed.infra.schemaregistry.AvroSchemas.USER_ID_NAME_EMAIL;
import static dev.pinfeed.infra.schemaregistry.RegistryHttpClient.schemaBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.infra.schemaregistry.RegistryHttpClient.Reply;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The REST API over HTTP, against an in-memory log (no Kafka). */
class SchemaRegistryServerTest {

    private static final String USERS = "/subjects/users-value";

    private final InMemorySchemaLog log = new InMemorySchemaLog();
    private SchemaRegistryServer server;
    private RegistryHttpClient client;

    @BeforeEach
    void start() {
        startOver(log);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private void startOver(SchemaLog storage) {
        server = SchemaRegistryServer.start("127.0.0.1", 0, storage, CompatibilityLevel.BACKWARD);
        client = new RegistryHttpClient("http://127.0.0.1:" + server.port());
    }

    private static String canonical(String schema) {
        return new Schema.Parser().parse(schema).toString();
    }

    private static void assertError(Reply reply, int status, int errorCode) {
        assertThat(reply.status()).as("HTTP status of %s", reply.body()).isEqualTo(status);
        assertThat(reply.errorCode()).isEqualTo(errorCode);
        assertThat(reply.body().path("message").asText()).isNotBlank().doesNotContain("\tat ");
    }

    private int register(String subjectPath, String schema) {
        Reply reply = client.post(subjectPath + "/versions", schemaBody(schema));
        assertThat(reply.status()).as("register: %s", reply.body()).isEqualTo(200);
        return reply.body().get("id").asInt();
    }

    @Test
    void registerThenFetchByIdAndVersion() {
        int id = register(USERS, USER_ID_NAME);

        Reply byId = client.get("/schemas/ids/" + id);
        assertThat(byId.contentType()).isEqualTo("application/vnd.schemaregistry.v1+json");
        assertThat(byId.body().get("schema").asText()).isEqualTo(canonical(USER_ID_NAME));
        assertThat(byId.body().has("schemaType")).isFalse();

        Reply latest = client.get(USERS + "/versions/latest");
        assertThat(latest.body()).isEqualTo(new ObjectMapper().valueToTree(
                Map.of("subject", "users-value", "version", 1, "id", id, "schema", canonical(USER_ID_NAME))));
        assertThat(client.get(USERS + "/versions/1").body()).isEqualTo(latest.body());
        assertThat(client.get(USERS + "/versions/1/schema").body().get("name").asText()).isEqualTo("User");

        assertThat(client.get("/subjects").body().toString()).isEqualTo("[\"users-value\"]");
        assertThat(client.get(USERS + "/versions").body().toString()).isEqualTo("[1]");
        assertThat(client.get("/schemas/ids/" + id + "/versions").body().toString()).isEqualTo("[{\"subject\":\"users-value\",\"version\":1}]");
        assertThat(client.get("/schemas/ids/" + id + "/subjects").body().toString()).isEqualTo("[\"users-value\"]");
        assertThat(client.get("/schemas/types").body().toString()).isEqualTo("[\"AVRO\"]");
    }

    @Test
    void registeringAgainReturnsTheSameIdAndAnotherSubjectSharesIt() {
        int id = register(USERS, USER_ID_NAME);

        assertThat(register(USERS, USER_ID_NAME)).isEqualTo(id);
        assertThat(register("/subjects/pins-value", USER_ID_NAME)).isEqualTo(id);
        assertThat(client.get("/schemas/ids/" + id + "/subjects").body().toString()).isEqualTo("[\"pins-value\",\"users-value\"]");
    }

    @Test
    void anIncompatibleSchemaIsRejectedWith409() {
        register(USERS, USER_ID_NAME);

        Reply reply = client.post(USERS + "/versions", schemaBody(USER_ID_NAME_AGE));

        assertError(reply, 409, 409);
        assertThat(reply.body().get("message").asText())
                .startsWith("Schema being registered is incompatible with an earlier schema for subject \"users-value\", details: [")
                .contains("READER_FIELD_MISSING_DEFAULT_VALUE");
        assertThat(client.get(USERS + "/versions").body().toString()).isEqualTo("[1]");
    }

    @Test
    void badRequestsGetConfluentErrorCodes() {
        assertError(client.post(USERS + "/versions", schemaBody("{\"type\":\"nope\"}")), 422, 42201);
        assertError(client.post(USERS + "/versions", Map.of("schema", USER_ID, "schemaType", "PROTOBUF")), 422, 42201);
        assertError(client.post(USERS + "/versions", Map.of("schema", Map.of("type", "string"))), 422, 42201);
        assertError(client.sendJson("POST", USERS + "/versions", "{\"schema\": ", RestApi.CONTENT_TYPE), 400, 400);
        assertError(client.sendJson("POST", USERS + "/versions", "{}", "text/plain"), 415, 415);
        assertThat(client.get("/subjects").body()).isEmpty();
    }

    @Test
    void everyAcceptedContentTypeAndExplicitAvroIsAccepted() {
        String body = "{\"schema\": " + new ObjectMapper().valueToTree(USER_ID) + ", \"schemaType\": \"AVRO\"}";
        for (String type : new String[] {"application/vnd.schemaregistry.v1+json", "application/vnd.schemaregistry+json",
                "application/json; charset=utf-8"}) {
            assertThat(client.sendJson("POST", USERS + "/versions", body, type).status()).as(type).isEqualTo(200);
        }
    }

    @Test
    void unknownThingsAreNotFoundWithTheirOwnCodes() {
        register(USERS, USER_ID);

        assertError(client.get("/subjects/nobody/versions"), 404, 40401);
        assertThat(client.get("/subjects/nobody/versions/latest").body().get("message").asText()).isEqualTo("Subject 'nobody' not found.");
        assertError(client.get(USERS + "/versions/9"), 404, 40402);
        assertError(client.get(USERS + "/versions/first"), 422, 42202);
        Reply unknownId = client.get("/schemas/ids/7");
        assertError(unknownId, 404, 40403);
        assertThat(unknownId.body().get("message").asText()).isEqualTo("Schema 7 not found");
        assertError(client.get("/no/such/path"), 404, 404);
        assertError(client.delete("/schemas/types"), 405, 405);
    }

    @Test
    void lookupFindsARegisteredSchema() {
        int id = register(USERS, USER_ID_NAME);

        Reply found = client.post(USERS, schemaBody(USER_ID_NAME));
        assertThat(found.status()).isEqualTo(200);
        assertThat(found.body().get("id").asInt()).isEqualTo(id);
        assertThat(found.body().get("version").asInt()).isEqualTo(1);

        assertError(client.post(USERS, schemaBody(USER_ID)), 404, 40403);
        assertError(client.post("/subjects/nobody", schemaBody(USER_ID)), 404, 40401);
    }

    @Test
    void softDeletes() {
        int id = register(USERS, USER_ID_NAME);
        register(USERS, USER_ID_NAME_EMAIL);

        assertThat(client.delete(USERS + "/versions/2").body().asInt()).isEqualTo(2);
        assertThat(client.get(USERS + "/versions").body().toString()).isEqualTo("[1]");
        assertThat(client.delete(USERS).body().toString()).isEqualTo("[1]");
        assertError(client.get(USERS + "/versions"), 404, 40401);
        assertThat(client.get("/schemas/ids/" + id).status()).isEqualTo(200);
        assertError(client.delete(USERS + "?permanent=true"), 422, 42299);
    }

    @Test
    void globalAndSubjectConfig() {
        assertThat(client.get("/config").body().toString()).isEqualTo("{\"compatibilityLevel\":\"BACKWARD\"}");
        assertThat(client.put("/config", Map.of("compatibility", "FULL")).body().toString()).isEqualTo("{\"compatibility\":\"FULL\"}");
        assertThat(client.get("/config").body().get("compatibilityLevel").asText()).isEqualTo("FULL");
        assertError(client.put("/config", Map.of("compatibility", "SIDEWAYS")), 422, 42203);

        assertError(client.get("/config/users-value"), 404, 40408);
        assertThat(client.get("/config/users-value?defaultToGlobal=true").body().get("compatibilityLevel").asText()).isEqualTo("FULL");
        assertThat(client.put("/config/users-value", Map.of("compatibility", "NONE")).body().get("compatibility").asText()).isEqualTo("NONE");
        assertThat(client.get("/config/users-value").body().get("compatibilityLevel").asText()).isEqualTo("NONE");

        // NONE lets the otherwise incompatible schema through.
        register(USERS, USER_ID_NAME);
        register(USERS, USER_ID_NAME_AGE);

        assertThat(client.delete("/config/users-value").body().get("compatibilityLevel").asText()).isEqualTo("NONE");
        assertError(client.get("/config/users-value"), 404, 40408);
    }

    @Test
    void compatibilityEndpoint() {
        assertThat(client.post("/compatibility" + USERS + "/versions/latest", schemaBody(USER_ID)).body().toString())
                .isEqualTo("{\"is_compatible\":true}");
        register(USERS, USER_ID_NAME);

        assertThat(client.post("/compatibility" + USERS + "/versions/latest", schemaBody(USER_ID_NAME_EMAIL)).body().get("is_compatible").asBoolean())
                .isTrue();
        Reply verbose = client.post("/compatibility" + USERS + "/versions/1?verbose=true", schemaBody(USER_ID_NAME_AGE));
        assertThat(verbose.body().get("is_compatible").asBoolean()).isFalse();
        assertThat(verbose.body().get("messages").toString()).contains("READER_FIELD_MISSING_DEFAULT_VALUE");
        assertError(client.post("/compatibility" + USERS + "/versions/5", schemaBody(USER_ID)), 404, 40402);
    }

    @Test
    void subjectsWithReservedCharactersRoundTrip() {
        register("/subjects/team%2Fpins%20v%2B1", USER_ID);

        assertThat(client.get("/subjects").body().get(0).asText()).isEqualTo("team/pins v+1");
        assertThat(client.get("/subjects/team%2Fpins%20v%2B1/versions/latest").body().get("subject").asText()).isEqualTo("team/pins v+1");
    }

    @Test
    void aNewServerOverTheSameLogServesTheSameSchemas() {
        int id = register(USERS, USER_ID_NAME);
        client.put("/config/users-value", Map.of("compatibility", "FORWARD"));
        server.close();

        startOver(log.reopen());

        assertThat(client.get("/schemas/ids/" + id).body().get("schema").asText()).isEqualTo(canonical(USER_ID_NAME));
        assertThat(client.get("/config/users-value").body().get("compatibilityLevel").asText()).isEqualTo("FORWARD");
        assertThat(register(USERS, USER_ID_NAME_EMAIL)).isEqualTo(id + 1);
    }
}
