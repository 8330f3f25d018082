package dev.pinfeed.ingestapi.fakes;

import dev.pinfeed.ingestapi.core.EventPublisher;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;

/** Keeps published events in order; a failure rule can fail chosen events (as a broker timeout would). */
public final class RecordingEventPublisher implements EventPublisher {

    private final List<SpecificRecord> published = new ArrayList<>();
    public volatile Function<SpecificRecord, Throwable> failWith = e -> null;

    @Override
    public synchronized CompletableFuture<Void> publish(SpecificRecord event) {
        Throwable failure = failWith.apply(event);
        if (failure != null) return CompletableFuture.failedFuture(failure);
        published.add(event);
        return CompletableFuture.completedFuture(null);
    }

    public synchronized List<SpecificRecord> published() {
        return List.copyOf(published);
    }

    /** Events of {@code type}, in publish order. */
    public synchronized <T extends SpecificRecord> List<T> published(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (SpecificRecord r : published) if (type.isInstance(r)) out.add(type.cast(r));
        return out;
    }
}
