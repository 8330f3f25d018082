package dev.pinfeed.feedstore;

import java.util.concurrent.atomic.AtomicLong;

class InMemoryCelebrityPinsTest extends CelebrityPinsContract {

    private final InMemoryCelebrityPins store = new InMemoryCelebrityPins(MAX);
    private final AtomicLong ids = new AtomicLong(1000);

    @Override
    protected CelebrityPins store() {
        return store;
    }

    @Override
    protected long freshId() {
        return ids.incrementAndGet();
    }
}
