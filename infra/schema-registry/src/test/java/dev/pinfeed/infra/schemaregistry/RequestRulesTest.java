package dev.pinfeed.infra.schemaregistry;

import static dev.pinfeed.infra.schemaregistry.AvroSchemas.USER_ID_NAME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.infra.schemaregistry.RequestRules.BasicCredentials;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The body limit and basic auth, over HTTP against the server in this JVM (in-memory log, a free port). */
class RequestRulesTest {

    private static final int LIMIT = 4096;
    private static final ObjectMapper JSON = new ObjectMapper();

    private SchemaRegistryServer server;

    private void start(RequestRules rules) {
        server = SchemaRegistryServer.start("127.0.0.1", 0, new InMemorySchemaLog(), CompatibilityLevel.BACKWARD, rules);
    }

    @AfterEach
    void stop() {
        if (server != null) server.close();
    }

    /**
     * Sends {@code head} and {@code body} on a raw connection and returns the answer's status line and JSON body,
     * read by its Content-Length (the connection stays open: the client has not sent the rest of its body).
     */
    private String raw(String head, byte[] body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000); // the answer must come without the rest of the body: a wait here fails the test
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            StringBuilder headers = new StringBuilder();
            while (headers.indexOf("\r\n\r\n") < 0) headers.append((char) in.readUnsignedByte());
            Matcher length = Pattern.compile("(?i)content-length: *(\\d+)").matcher(headers);
            assertThat(length.find()).as("Content-Length in %s", headers).isTrue();
            byte[] answer = new byte[Integer.parseInt(length.group(1))];
            in.readFully(answer);
            return headers + new String(answer, StandardCharsets.UTF_8);
        }
    }

    private static JsonNode jsonOf(String response) throws IOException {
        return JSON.readTree(response.substring(response.indexOf("\r\n\r\n") + 4));
    }

    @Test
    void aDeclaredBodyOverTheLimitIs413BeforeAByteOfItIsRead() throws IOException {
        start(new RequestRules(LIMIT, Optional.empty()));

        String answer = raw("POST /subjects/s/versions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: 10485760\r\nConnection: close\r\n\r\n", new byte[0]); // 10 MiB announced, none sent

        assertThat(answer).startsWith("HTTP/1.1 413 ");
        assertThat(jsonOf(answer).get("error_code").asInt()).isEqualTo(413);
        assertThat(jsonOf(answer).get("message").asText()).isEqualTo("Request body of 10485760 bytes exceeds the limit of 4096 bytes");
    }

    @Test
    void aChunkedBodyIsCutOffOneBytePastTheLimit() throws IOException {
        start(new RequestRules(LIMIT, Optional.empty()));
        byte[] sent = new byte[LIMIT + 1];
        Arrays.fill(sent, (byte) ' ');

        // A chunk of twice the limit announced, one byte past the limit sent: a server reading on would wait for ever.
        String answer = raw("POST /subjects/s/versions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + Integer.toHexString(2 * LIMIT) + "\r\n", sent);

        assertThat(answer).startsWith("HTTP/1.1 413 ");
        assertThat(jsonOf(answer).get("message").asText()).isEqualTo("Request body of more than 4096 bytes exceeds the limit of 4096 bytes");
    }

    @Test
    void aSchemaWithinTheLimitIsRegistered() {
        start(new RequestRules(LIMIT, Optional.empty()));

        RegistryHttpClient.Reply reply = new RegistryHttpClient("http://127.0.0.1:" + server.port())
                .post("/subjects/s/versions", RegistryHttpClient.schemaBody(USER_ID_NAME));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body().get("id").asInt()).isEqualTo(1);
    }

    private HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
        if (authorization != null) request.header("Authorization", authorization);
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String basic(String userColonPassword) {
        return "Basic " + Base64.getEncoder().encodeToString(userColonPassword.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void withBasicAuthOnlyTheConfiguredUserGetsIn(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("registry-auth"), "pinfeed:pa:ss\n");
        start(new RequestRules(LIMIT, Optional.of(BasicCredentials.read(file))));

        HttpResponse<String> anonymous = get("/subjects", null);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Basic realm="));
        assertThat(JSON.readTree(anonymous.body()).get("error_code").asInt()).isEqualTo(401);
        assertThat(get("/subjects", basic("pinfeed:wrong")).statusCode()).isEqualTo(401);
        assertThat(get("/subjects", basic("other:pa:ss")).statusCode()).isEqualTo(401);

        HttpResponse<String> admitted = get("/subjects", basic("pinfeed:pa:ss"));
        assertThat(admitted.statusCode()).isEqualTo(200);
        assertThat(admitted.body()).isEqualTo("[]");
    }

    @Test
    void aMalformedCredentialsFileFailsTheStart(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("registry-auth"), "no-colon-here\n");
        assertThatThrownBy(() -> BasicCredentials.read(file)).hasMessageContaining("must hold user:password");
        assertThat(new BasicCredentials("u", "secret")).hasToString("BasicCredentials[user=u]");
    }
}
