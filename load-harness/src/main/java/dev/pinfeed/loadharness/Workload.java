package dev.pinfeed.loadharness;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The objects created in setup and the event mix sent against them: by default 80 % PinLiked/PinUnliked
 * (half each) of an existing pin by an existing user, 20 % PinCreated on an existing board by its owner.
 */
final class Workload {

    static final int DEFAULT_CREATE_PERCENT = 20;
    static final String DETAILS = "Load harness pin: a small wooden cabin by a lake, morning light";
    static final String LINK = "https://example.com/p/cabin-by-the-lake";
    static final String IMAGE_URL = "https://img.example.com/pins/cabin-by-the-lake.jpg";

    /** A board and the user who owns it. */
    record Board(long id, long ownerId) {}

    private final List<Long> users;
    private final List<Board> boards;
    private final List<Long> pins;

    private final int createPercent;

    Workload(List<Long> users, List<Board> boards, List<Long> pins) {
        this(users, boards, pins, DEFAULT_CREATE_PERCENT);
    }

    Workload(List<Long> users, List<Board> boards, List<Long> pins, int createPercent) {
        if (users.isEmpty() || boards.isEmpty() || pins.isEmpty()) throw new IllegalArgumentException("setup created nothing");
        this.users = List.copyOf(users);
        this.boards = List.copyOf(boards);
        this.pins = List.copyOf(pins);
        this.createPercent = createPercent;
    }

    int createPercent() {
        return createPercent;
    }

    Workload withCreatePercent(int percent) {
        return new Workload(users, boards, pins, percent);
    }

    long randomUser(SplittableRandom r) {
        return users.get(r.nextInt(users.size()));
    }

    long randomPin(SplittableRandom r) {
        return pins.get(r.nextInt(pins.size()));
    }

    Board randomBoard(SplittableRandom r) {
        return boards.get(r.nextInt(boards.size()));
    }

    /** Number of PinCreated events in a batch of {@code n}: exactly the share, rounded, so every batch has the same mix. */
    int creates(int n) {
        return (int) Math.round(n * createPercent / 100.0);
    }

    /** A /v1/events body of {@code n} events with {@link #creates(int)} PinCreated at random positions. */
    byte[] eventsBody(SplittableRandom r, int n) {
        boolean[] create = new boolean[n];
        for (int placed = 0, want = creates(n); placed < want; ) {
            int i = r.nextInt(n);
            if (!create[i]) {
                create[i] = true;
                placed++;
            }
        }
        StringBuilder sb = new StringBuilder(n * 110).append("{\"events\":[");
        for (int i = 0; i < n; i++) {
            if (i > 0) sb.append(',');
            if (create[i]) {
                Board b = randomBoard(r);
                sb.append("{\"type\":\"PinCreated\",\"boardId\":\"").append(b.id()).append("\",\"authorId\":\"").append(b.ownerId())
                        .append("\",\"details\":\"").append(DETAILS).append("\",\"link\":\"").append(LINK)
                        .append("\",\"imageUrl\":\"").append(IMAGE_URL).append("\"}");
            } else {
                sb.append("{\"type\":\"").append(r.nextBoolean() ? "PinLiked" : "PinUnliked").append("\",\"userId\":\"")
                        .append(randomUser(r)).append("\",\"pinId\":\"").append(randomPin(r)).append("\"}");
            }
        }
        return sb.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }
}
