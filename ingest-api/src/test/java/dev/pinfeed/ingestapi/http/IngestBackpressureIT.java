package dev.pinfeed.ingestapi.http;

import static dev.pinfeed.ingestapi.http.IngestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.httpkit.Principal;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.IngestApiServer;
import dev.pinfeed.ingestapi.IngestComponents;
import dev.pinfeed.ingestapi.http.IngestClient.Answer;
import dev.pinfeed.ingestapi.kafka.FreshTopics;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Load shedding at the Kafka end: with a tiny producer buffer that never blocks, the events that do
 * not fit are answered 429 and are not published, while the rest are.
 */
@ExtendWith(StackExtension.class)
class IngestBackpressureIT {

    /** Retries a 429 (the topic's metadata not fetched yet) until a 202; the patience is for a loaded box, not a timing. */
    private static String untilAccepted(IngestClient client, String path, String body) throws InterruptedException {
        long deadline = System.nanoTime() + METADATA_PATIENCE.toNanos();
        while (true) {
            Answer a = client.post(path, body);
            if (a.status() == 202) return a.text("id");
            assertThat(a.status()).as(a.body()).isEqualTo(429);
            if (System.nanoTime() > deadline) throw new AssertionError(path + " not accepted in " + METADATA_PATIENCE + ": " + a.body());
            Thread.sleep(100);
        }
    }

    private static final Duration METADATA_PATIENCE = Duration.ofSeconds(60);

    @Test
    void eventsThatDoNotFitKafkasBufferAre429AndUnpublished(TestStack stack) throws Exception {
        FreshTopics topics = new FreshTopics(stack);
        Properties tinyBuffer = new Properties();
        tinyBuffer.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Integer.toString(256 * 1024));
        tinyBuffer.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "0");
        tinyBuffer.put(ProducerConfig.LINGER_MS_CONFIG, "200"); // hold the buffer while the batch is sent
        String token = "bp-" + System.nanoTime();
        try (IngestComponents components = new IngestComponents(stack.config(), topics.overrides(), stack.keyPrefix("bp"), tinyBuffer);
             RunningHttpApp running = IngestApiServer.app(stack.config(), components, new TokenAuthenticator(Map.of(
                     TokenAuthenticator.sha256Hex(token), new Principal("bp", Set.of("*"))))).start("127.0.0.1", 0)) {
            IngestClient client = new IngestClient(running.baseUri(), token);
            // With max.block.ms 0 even a missing topic metadata is a 429 at first; the producer fetches it meanwhile.
            String user = untilAccepted(client, "/v1/users", json("{'username':'bp" + Long.toString(stack.freshId(), 36) + "'}"));
            String board = untilAccepted(client, "/v1/boards", json("{'ownerId':'" + user + "','name':'b'}"));
            StringBuilder events = new StringBuilder("{\"events\":[");
            String details = "x".repeat(1900);
            for (int i = 0; i < 1000; i++) {
                events.append(i == 0 ? "" : ",").append("{\"type\":\"PinCreated\",\"boardId\":\"").append(board)
                        .append("\",\"authorId\":\"").append(user).append("\",\"details\":\"").append(i).append(details).append("\"}");
            }

            events.append("]}");
            untilAccepted(client, "/v1/pins", json("{'boardId':'" + board + "','authorId':'" + user + "','details':'warm'}"));

            Answer a = client.post("/v1/events", events.toString());

            assertThat(a.status()).as(a.body().substring(0, Math.min(500, a.body().length()))).isEqualTo(202);
            int accepted = a.json().get("accepted").asInt();
            assertThat(accepted).as("some fit, most do not").isBetween(1, 999);
            Set<String> acceptedIds = new HashSet<>();
            for (JsonNode r : a.json().get("results")) {
                if (r.get("status").asText().equals("accepted")) {
                    acceptedIds.add(r.get("ids").get("id").asText());
                } else {
                    assertThat(r.get("error").get("status").asInt()).isEqualTo(429);
                }
            }
            Set<String> published = new HashSet<>();
            for (var e : topics.events(accepted + 3, Duration.ofSeconds(20))) {
                if (e instanceof PinCreated p && !p.getDetails().equals("warm")) published.add(Long.toString(p.getPinId()));
            }
            assertThat(published).isEqualTo(acceptedIds);
        }
    }
}
