package dev.pinfeed.feedstore;

import java.util.concurrent.atomic.AtomicLong;

class InMemoryInterestPinsTest extends InterestPinsContract {

    private final InMemoryInterestPins store = new InMemoryInterestPins(MAX);
    private final AtomicLong ids = new AtomicLong(1000);

    @Override
    protected InterestPins store() {
        return store;
    }

    @Override
    protected long freshId() {
        return ids.incrementAndGet();
    }
}
