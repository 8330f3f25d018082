package dev.pinfeed.infra.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The demo dataset {@code ./pinfeed dev} publishes once per data directory, through the public
 * ingest API like any producer: users, their boards and pins, follows of users and boards, likes.
 * Seeded, so every fresh stack gets the same graph shape.
 */
final class DemoDataset {

    static final int USERS = 30;
    static final int BOARDS_PER_USER = 2;
    static final int PINS_PER_BOARD = 5;
    static final int USER_FOLLOWS_PER_USER = 8;
    static final int BOARD_FOLLOWS_PER_USER = 3;
    static final int LIKES_PER_USER = 5;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI ingest;
    private final String token;
    private final Consumer<String> progress;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    DemoDataset(URI ingest, String token, Consumer<String> progress) {
        this.ingest = ingest;
        this.token = token;
        this.progress = progress;
    }

    static Path marker(StackLayout layout) {
        return layout.home().resolve("data").resolve("demo-dataset.loaded");
    }

    /** Publishes the dataset unless this data directory already has it. */
    void loadOnce(StackLayout layout) throws Exception {
        Path marker = marker(layout);
        if (Files.exists(marker)) {
            progress.accept("demo dataset already loaded (" + marker + ")");
            return;
        }
        long t0 = System.nanoTime();
        SplittableRandom random = new SplittableRandom(20261122);
        List<String> users = new ArrayList<>();
        for (int i = 0; i < USERS; i++) {
            ObjectNode body = JSON.createObjectNode().put("username", String.format(Locale.ROOT, "demo_user_%02d", i))
                    .put("displayName", "Demo User " + i);
            users.add(post("/v1/users", body).get("id").asText());
        }
        List<String> boards = new ArrayList<>();
        ArrayNode boardEvents = JSON.createArrayNode();
        for (String owner : users) {
            for (int b = 0; b < BOARDS_PER_USER; b++) {
                boardEvents.addObject().put("type", "BoardCreated").put("ownerId", owner).put("name", BOARD_NAMES[random.nextInt(BOARD_NAMES.length)]);
            }
        }
        for (JsonNode r : batch(boardEvents)) boards.add(r.get("ids").get("id").asText());
        ArrayNode pinEvents = JSON.createArrayNode();
        for (int b = 0; b < boards.size(); b++) {
            String owner = users.get(b / BOARDS_PER_USER);
            for (int p = 0; p < PINS_PER_BOARD; p++) {
                int n = random.nextInt(1000);
                pinEvents.addObject().put("type", "PinCreated").put("boardId", boards.get(b)).put("authorId", owner)
                        .put("details", "Demo pin " + n + " on board " + b).put("link", "https://example.com/pins/" + n)
                        .put("imageUrl", "https://images.example.com/" + n + ".jpg");
            }
        }
        List<String> pins = new ArrayList<>();
        for (JsonNode r : batch(pinEvents)) pins.add(r.get("ids").get("id").asText());
        ArrayNode social = JSON.createArrayNode();
        for (int u = 0; u < users.size(); u++) {
            for (int k = 1; k <= USER_FOLLOWS_PER_USER; k++) {
                social.addObject().put("type", "UserFollowed").put("userId", users.get(u)).put("targetUserId", users.get((u + k * 3) % users.size()));
            }
            for (int k = 0; k < BOARD_FOLLOWS_PER_USER; k++) {
                int b = random.nextInt(boards.size());
                if (b / BOARDS_PER_USER == u) b = (b + BOARDS_PER_USER) % boards.size(); // owners do not follow their own boards
                social.addObject().put("type", "BoardFollowed").put("userId", users.get(u)).put("boardId", boards.get(b));
            }
            for (int k = 0; k < LIKES_PER_USER; k++) {
                social.addObject().put("type", "PinLiked").put("userId", users.get(u)).put("pinId", pins.get(random.nextInt(pins.size())));
            }
        }
        batch(social);
        Files.writeString(marker, "users=" + users.size() + " boards=" + boards.size() + " pins=" + pins.size() + "\n");
        progress.accept(String.format(Locale.ROOT, "demo dataset published in %.1f s: %d users, %d boards, %d pins, %d follows and likes",
                (System.nanoTime() - t0) / 1e9, users.size(), boards.size(), pins.size(), social.size()));
    }

    /**
     * Each request carries a fixed Idempotency-Key derived from its body, so a load interrupted halfway
     * (Ctrl-C) resumes on the next start: requests already answered replay their answers (24 h)
     * instead of colliding with the users they created. 429/503 (a cold Kafka) are retried.
     */
    private JsonNode post(String path, JsonNode body) throws IOException, InterruptedException {
        String json = JSON.writeValueAsString(body);
        String key = "demo-" + dev.pinfeed.config.Sha256.hex(path + json).substring(0, 32);
        for (int attempt = 1; ; attempt++) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(ingest.resolve(path)).timeout(Duration.ofSeconds(60))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").header("Idempotency-Key", key)
                    .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 202) return JSON.readTree(r.body());
            if ((r.statusCode() == 429 || r.statusCode() == 503 || r.statusCode() == 409) && attempt < 20) {
                Thread.sleep(500);
                continue;
            }
            throw new IllegalStateException("demo dataset: POST " + path + " answered " + r.statusCode() + ": " + r.body()
                    + (r.statusCode() == 409 ? " (./pinfeed dev --fresh starts over)" : ""));
        }
    }

    /** Publishes up to 1000 events per request; every event must be accepted. */
    private List<JsonNode> batch(ArrayNode events) throws IOException, InterruptedException {
        List<JsonNode> results = new ArrayList<>();
        for (int from = 0; from < events.size(); from += 1000) {
            ArrayNode chunk = JSON.createArrayNode();
            for (int i = from; i < Math.min(events.size(), from + 1000); i++) chunk.add(events.get(i));
            JsonNode answer = post("/v1/events", JSON.createObjectNode().set("events", chunk));
            for (JsonNode r : answer.get("results")) {
                if (!r.get("status").asText().equals("accepted")) throw new IllegalStateException("demo dataset: event rejected: " + r);
                results.add(r);
            }
        }
        return results;
    }

    private static final String[] BOARD_NAMES = {"Recipes", "Travel", "Home ideas", "Garden", "Woodworking", "Street art", "Hiking",
            "Coffee", "Typography", "Bicycles"};
}
