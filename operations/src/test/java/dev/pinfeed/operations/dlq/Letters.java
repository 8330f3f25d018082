package dev.pinfeed.operations.dlq;

import dev.pinfeed.eventsschema.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Dead letters as a processor writes them, for the unit tests. */
final class Letters {

    static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");

    private Letters() {}

    static DeadLetter letter(String id, Instant time, String processor, String sourceTopic, String reason, String... extraHeaders) {
        List<DeadLetter.HeaderValue> headers = new ArrayList<>();
        headers.add(h("trace", "t-" + id));
        for (int i = 0; i < extraHeaders.length; i += 2) headers.add(h(extraHeaders[i], extraHeaders[i + 1]));
        headers.add(h(DeadLetters.HEADER_REASON, reason));
        headers.add(h(DeadLetters.HEADER_ERROR, "like of pin 42: no such pin"));
        if (sourceTopic != null) headers.add(h(DeadLetters.HEADER_SOURCE_TOPIC, sourceTopic));
        List<String> given = List.of(extraHeaders);
        if (!given.contains(DeadLetters.HEADER_SOURCE_PARTITION)) headers.add(h(DeadLetters.HEADER_SOURCE_PARTITION, "2"));
        if (!given.contains(DeadLetters.HEADER_SOURCE_OFFSET)) headers.add(h(DeadLetters.HEADER_SOURCE_OFFSET, "57"));
        headers.add(h(DeadLetters.HEADER_CONSUMER, processor));
        return new DeadLetter(DeadLetterId.parse(id), time, "42".getBytes(StandardCharsets.UTF_8), new byte[] {0, 0, 0, 0, 7, 1, 2}, headers);
    }

    static DeadLetter like(String id, Instant time) {
        return letter(id, time, "pinfeed-materializer", "pinfeed.likes.v1", DeadLetters.MISSING_REFERENCE);
    }

    /** A like redriven from {@code from} and refused again. */
    static DeadLetter likeFailedAgain(String id, Instant time, String from) {
        return letter(id, time, "pinfeed-materializer", "pinfeed.likes.v1", DeadLetters.MISSING_REFERENCE,
                DeadLetters.HEADER_REDRIVE_FROM, from, DeadLetters.HEADER_REDRIVE_AT, T0.toString());
    }

    static DeadLetter.HeaderValue h(String name, String value) {
        return new DeadLetter.HeaderValue(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
