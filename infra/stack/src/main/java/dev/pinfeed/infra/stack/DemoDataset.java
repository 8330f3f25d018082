package dev.pinfeed.infra.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pinfeed.clikit.Progress;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The demo dataset {@code ./pinfeed dev} publishes once per data directory, through the public
 * ingest API like any producer: a power-law graph ({@link DemoPlan}: thousands of users, boards and
 * pins, a few authors with thousands of followers), follows of users and boards, a few board
 * unfollows, likes. Follows go first and the load waits until the follower graph shows them, so the
 * pins that follow fan out to their followers' feeds (the fan-out reads the graph as it is then).
 * Ends by naming a few users with their IDs and the curl line that reads one's home feed.
 */
final class DemoDataset {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SEED = 20261124L;
    private static final int BATCH = 1000;
    /** How long a wait for the processors goes on without progress before the load goes on with a warning. */
    private static final Duration STALL = Duration.ofSeconds(120);
    /** One attempt of a request; then it is sent again with its key (see {@link #post}). */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    /** How long a request is tried again: past ingest-api's hold on a key (120 s) and the longest request seen. */
    private static final Duration PATIENCE = Duration.ofMinutes(5);

    private final URI ingest;
    private final URI feed;
    private final String token;
    private final Consumer<String> progress;
    private final PrintWriter progressOut;
    private final Progress.Mode mode;
    private final DemoPlan.Size size;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Progress published;

    /** {@code progress}: lines; {@code progressOut} and {@code mode}: the load's progress (one updating line on a terminal). */
    DemoDataset(URI ingest, URI feed, String token, Consumer<String> progress, PrintWriter progressOut, Progress.Mode mode, DemoPlan.Size size) {
        this.ingest = ingest;
        this.feed = feed;
        this.token = token;
        this.progress = progress;
        this.progressOut = progressOut;
        this.mode = mode;
        this.size = size;
    }

    static Path marker(StackLayout layout) {
        return layout.home().resolve("data").resolve("demo-dataset.loaded");
    }

    /** Publishes the dataset unless this data directory already has it; either way prints where to look. */
    void loadOnce(StackLayout layout) throws Exception {
        try {
            load(layout);
        } finally {
            if (published != null) published.close();
        }
    }

    private void load(StackLayout layout) throws Exception {
        Path marker = marker(layout);
        if (Files.exists(marker)) {
            progress.accept("demo dataset already loaded (" + marker + ")");
            Files.readAllLines(marker).stream().filter(l -> !l.isBlank()).forEach(progress);
            return;
        }
        long t0 = System.nanoTime();
        DemoPlan plan = new DemoPlan(size, SEED);
        progress.accept(String.format(Locale.ROOT, "publishing the demo dataset: %d users, %d boards, %d pins, %d follows, %d likes, "
                        + "%d comments, %d repins, %d interests followed %d times (Ctrl-C: the next ./pinfeed dev resumes it) ...",
                plan.usernames.size(), plan.boards.size(), plan.pins.size(), plan.follows.size(), plan.likes.size(), plan.comments.size(),
                plan.repins.size(), DemoPlan.INTERESTS.size(), plan.interestFollows.size()));
        long total = plan.usernames.size() + plan.boards.size() + plan.follows.size() + plan.boardUnfollows.size() + plan.pins.size()
                + plan.likes.size() + plan.comments.size() + plan.repins.size() + DemoPlan.INTERESTS.size() + plan.interestFollows.size();
        published = Progress.start(progressOut, mode, "[pinfeed] demo dataset", total, "events", Clock.systemUTC()).startTicker();
        List<String> users = ids(publish("users", plan.usernames.stream()
                .map(name -> event("UserCreated").put("username", name).put("displayName", displayName(name))).toList()));
        List<String> boards = ids(publish("boards", plan.boards.stream()
                .map(b -> event("BoardCreated").put("ownerId", users.get(b.owner())).put("name", b.name())
                        .put("description", b.name() + " by " + plan.usernames.get(b.owner()))).toList()));
        publish("follows", plan.follows.stream().map(f -> f.user()
                ? event("UserFollowed").put("userId", users.get(f.follower())).put("targetUserId", users.get(f.target()))
                : event("BoardFollowed").put("userId", users.get(f.follower())).put("boardId", boards.get(f.target()))).toList());
        publish("board unfollows", plan.boardUnfollows.stream()
                .map(f -> event("BoardUnfollowed").put("userId", users.get(f.follower())).put("boardId", boards.get(f.target()))).toList());
        List<String> interests = ids(publish("interests", DemoPlan.INTERESTS.stream().map(name -> event("InterestCreated").put("name", name))
                .toList()));
        publish("interest follows", plan.interestFollows.stream()
                .map(f -> event("InterestFollowed").put("userId", users.get(f[0])).put("interestId", interests.get(f[1]))).toList());
        int star = plan.mostFollowed();
        awaitFollowers("/v1/users/" + users.get(star) + "/counts", plan.followers[star], "follows of the most followed user");
        int[] topInterest = plan.mostFollowedInterest();
        awaitFollowers("/v1/interests/" + interests.get(topInterest[0]), topInterest[1], "followers of an interest");
        // The pins that get repinned go first: the materializer reaches them while the rest are published, so the wait for
        // them before the repins (each copies its parent's content at ingest) finds them written.
        List<Integer> order = pinsRepinnedFirst(plan);
        List<String> inOrder = ids(publish("pins", order.stream().map(i -> {
            DemoPlan.Pin p = plan.pins.get(i);
            ObjectNode e = event("PinCreated").put("boardId", boards.get(p.board())).put("authorId", users.get(p.author()))
                    .put("details", "Demo pin " + p.n() + " on " + plan.boards.get(p.board()).name())
                    .put("link", "https://example.com/pins/" + p.n())
                    .put("imageUrl", "https://images.example.com/" + p.n() + ".jpg");
            if (!plan.pinInterests.get(i).isEmpty()) {
                ArrayNode carried = e.putArray("interestIds");
                plan.pinInterests.get(i).forEach(k -> carried.add(interests.get(k)));
            }
            return e;
        }).toList()));
        String[] byIndex = new String[order.size()];
        for (int k = 0; k < order.size(); k++) byIndex[order.get(k)] = inOrder.get(k);
        List<String> pins = List.of(byIndex);
        publish("likes", plan.likes.stream()
                .map(l -> event("PinLiked").put("userId", users.get(l[0])).put("pinId", pins.get(l[1]))).toList());
        publish("comments", plan.comments.stream()
                .map(c -> event("CommentCreated").put("pinId", pins.get(c.pin())).put("authorId", users.get(c.user())).put("text", c.text())).toList());
        // A repin copies its parent's content from the canonical store at ingest: the parents must be there first.
        awaitPins(plan.repins.stream().map(r -> pins.get(r.pin())).distinct().toList());
        publish("repins", plan.repins.stream()
                .map(r -> event("PinCreated").put("parentPinId", pins.get(r.pin())).put("boardId", boards.get(r.board()))
                        .put("authorId", users.get(r.user()))).toList());

        int reader = plan.busyReader(20);
        List<String> lines = List.of(
                String.format(Locale.ROOT, "  most followed: %s  id %s  (%d followers%s)", plan.usernames.get(star), users.get(star), plan.followers[star],
                        plan.followers[star] >= DemoPlan.CELEBRITY_FOLLOWERS ? ": a celebrity, his pins are pulled at read time" : ""),
                String.format(Locale.ROOT, "  a busy reader: %s  id %s", plan.usernames.get(reader), users.get(reader)),
                String.format(Locale.ROOT, "  a quiet user:  %s  id %s", plan.usernames.get(plan.usernames.size() - 1), users.get(users.size() - 1)),
                "  home feed:  curl -H \"Authorization: Bearer $(./pinfeed token --user " + plan.usernames.get(reader) + ")\" '"
                        + feed.resolve("/v1/users/" + users.get(reader) + "/feed?limit=5") + "'",
                "  a user:     curl '" + feed.resolve("/v1/users/by-username/" + plan.usernames.get(star)) + "'",
                "  an interest: curl '" + feed.resolve("/v1/interests/" + interests.get(topInterest[0])) + "'  ("
                        + DemoPlan.INTERESTS.get(topInterest[0]) + ", " + topInterest[1] + " followers; "
                        + (topInterest[1] >= DemoPlan.POPULAR_INTEREST_FOLLOWERS ? "popular: its pins are pulled at read time" : "its pins are fanned out")
                        + ", as \"interests\")",
                "  (the fan-out goes on filling feeds in the background after the load, on a 2-core box for several minutes:"
                        + " the console's pipeline page shows its consumer lag)");
        Files.writeString(marker, String.join("\n", lines) + "\n");
        published.done("published");
        progress.accept(String.format(Locale.ROOT, "demo dataset published in %.1f s:", (System.nanoTime() - t0) / 1e9));
        lines.forEach(progress);
    }

    /** The plan's pin indexes in publishing order: those repinned first (in the order of their first repin), then the rest. */
    static List<Integer> pinsRepinnedFirst(DemoPlan plan) {
        java.util.LinkedHashSet<Integer> order = new java.util.LinkedHashSet<>();
        plan.repins.forEach(r -> order.add(r.pin()));
        for (int i = 0; i < plan.pins.size(); i++) order.add(i);
        return List.copyOf(order);
    }

    private static ObjectNode event(String type) {
        return JSON.createObjectNode().put("type", type);
    }

    private static String displayName(String username) {
        String first = username.substring(0, username.indexOf('_'));
        return Character.toUpperCase(first.charAt(0)) + first.substring(1) + " " + username.substring(username.indexOf('_') + 1);
    }

    private static List<String> ids(List<JsonNode> results) {
        return results.stream().map(r -> r.get("ids").get("id").asText()).toList();
    }

    /**
     * Waits until feed-service counts {@code expected} followers at {@code path} (the most followed user's counts, the
     * most followed interest): the graph processor has applied the follows, so the pins published next reach them. As
     * long as the count grows (a busy box applies them slowly); after {@link #STALL} without growth a warning names
     * {@code what} and the load goes on.
     */
    private void awaitFollowers(String path, int expected, String what) throws InterruptedException {
        long lastProgress = System.nanoTime();
        long seen = -1;
        while (System.nanoTime() - lastProgress < STALL.toNanos()) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(feed.resolve(path))
                        .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    long count = JSON.readTree(r.body()).path("followers").asLong(-1);
                    if (count >= expected) return;
                    if (count > seen) lastProgress = System.nanoTime();
                    seen = Math.max(seen, count);
                }
            } catch (IOException notYet) {
                // feed-service restarting or busy, or the object not materialized yet: ask again
            }
            Thread.sleep(500);
        }
        progress.accept("warning: the follower graph shows " + seen + " of " + expected + " " + what + ", none more for "
                + STALL.toSeconds() + " s; pins published now may miss some feeds (./pinfeed status, ./pinfeed logs graph-processor)");
    }

    /**
     * Waits until feed-service reads every pin of {@code pinIds} (the materializer has written them), as long as more
     * become readable; after {@link #STALL} without one a warning says how many are not and the load goes on.
     */
    private void awaitPins(List<String> pinIds) throws InterruptedException {
        List<String> unreadable = awaitReadable(pinIds, this::readable, System::nanoTime, Thread::sleep, STALL);
        if (!unreadable.isEmpty()) {
            progress.accept("warning: " + unreadable.size() + " of " + pinIds.size() + " repinned pins are not readable, none more for "
                    + STALL.toSeconds() + " s; their repins carry no details (./pinfeed status, ./pinfeed logs materializer)");
        }
    }

    private boolean readable(String pinId) throws InterruptedException {
        try {
            return http.send(HttpRequest.newBuilder(feed.resolve("/v1/pins/" + pinId)).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notYet) {
            return false; // feed-service restarting or busy: ask again
        }
    }

    /** Whether one object is readable yet. */
    @FunctionalInterface
    interface Probe {
        boolean readable(String id) throws InterruptedException;
    }

    /** Waiting between rounds, injectable for tests. */
    @FunctionalInterface
    interface Pause {
        void sleep(long millis) throws InterruptedException;
    }

    /**
     * Asks about every id still waiting, round after round, until all are readable or {@code stall} passed without any
     * becoming readable; answers those that are not. Every round asks them all: the materializer writes pins in no
     * order a caller can predict (partitions, boards written first), so one late pin says nothing about the others.
     */
    static List<String> awaitReadable(List<String> ids, Probe probe, java.util.function.LongSupplier nanoTime, Pause pause, Duration stall)
            throws InterruptedException {
        List<String> waiting = new ArrayList<>(ids);
        long lastProgress = nanoTime.getAsLong();
        while (true) {
            int before = waiting.size();
            List<String> still = new ArrayList<>(before);
            for (String id : waiting) {
                if (!probe.readable(id)) still.add(id);
            }
            waiting = still;
            long now = nanoTime.getAsLong();
            if (waiting.size() < before) lastProgress = now;
            if (waiting.isEmpty() || now - lastProgress >= stall.toNanos()) return waiting;
            pause.sleep(500);
        }
    }

    /**
     * Each request carries a fixed Idempotency-Key derived from its body, so a load interrupted halfway
     * (Ctrl-C) resumes on the next start: requests already answered replay their answers (24 h)
     * instead of colliding with the users they created. Retried with that key ({@link #untilAnswered}): 429/503 (a cold
     * Kafka), 409 (the key's first request still running) and a request that got no answer in time, whose retry waits for
     * the first and replays its answer — giving up on it instead stopped the stack under a request still creating users.
     */
    private JsonNode post(String path, JsonNode body) throws IOException, InterruptedException {
        String json = JSON.writeValueAsString(body);
        String key = "demo-" + dev.pinfeed.config.Sha256.hex(path + json).substring(0, 32);
        HttpRequest request = HttpRequest.newBuilder(ingest.resolve(path)).timeout(REQUEST_TIMEOUT)
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
        return JSON.readTree(untilAnswered("POST " + path, () -> {
            try {
                HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
                return new Answer(r.statusCode(), r.body());
            } catch (HttpTimeoutException e) {
                return null;
            }
        }, System::nanoTime, Thread::sleep, PATIENCE));
    }

    /** One attempt's answer; an attempt that timed out answers null. */
    record Answer(int status, String body) {}

    interface Attempt {
        Answer send() throws IOException, InterruptedException;
    }

    /**
     * Sends until a 202, and returns its body. 429, 503, 409 and no answer are tried again (after a pause, but for no
     * answer: its wait was the pause) until {@code patience} has passed; anything else fails at once.
     */
    static String untilAnswered(String what, Attempt attempt, java.util.function.LongSupplier nanoTime, Pause pause, Duration patience)
            throws IOException, InterruptedException {
        long giveUpAt = nanoTime.getAsLong() + patience.toNanos();
        while (true) {
            Answer a = attempt.send();
            if (a != null && a.status() == 202) return a.body();
            boolean again = a == null || a.status() == 429 || a.status() == 503 || a.status() == 409;
            if (!again || nanoTime.getAsLong() >= giveUpAt) {
                if (a == null) {
                    throw new IllegalStateException("demo dataset: " + what + " got no answer for " + patience.toSeconds()
                            + " s (see ./pinfeed logs ingest-api)");
                }
                throw new IllegalStateException("demo dataset: " + what + " answered " + a.status() + ": " + a.body()
                        + (a.status() == 409 ? " (./pinfeed dev --fresh starts over)" : ""));
            }
            if (a != null) pause.sleep(500);
        }
    }

    /** Publishes {@code events} in requests of up to 1000, every event must be accepted; prints progress. */
    private List<JsonNode> publish(String what, List<ObjectNode> events) throws IOException, InterruptedException {
        List<JsonNode> results = new ArrayList<>();
        for (int from = 0; from < events.size(); from += BATCH) {
            ArrayNode chunk = JSON.createArrayNode();
            chunk.addAll(events.subList(from, Math.min(events.size(), from + BATCH)));
            JsonNode answer = post("/v1/events", JSON.createObjectNode().set("events", chunk));
            for (JsonNode r : answer.get("results")) {
                if (!r.get("status").asText().equals("accepted")) {
                    throw new IllegalStateException("demo dataset: one of the " + what + " was rejected: " + r
                            + (r.toString().contains("username-taken") ? " (held by a user of an earlier load whose answers"
                                    + " are no longer kept, or by a claim a stopped load left: ./pinfeed verify index --repair frees such a claim;"
                                    + " ./pinfeed dev --fresh starts over)" : ""));
                }
                results.add(r);
            }
            published.advance(chunk.size());
        }
        return results;
    }
}
