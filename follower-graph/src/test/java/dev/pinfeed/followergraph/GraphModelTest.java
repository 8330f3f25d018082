package dev.pinfeed.followergraph;

import java.util.concurrent.atomic.AtomicLong;

/** The reference model must itself keep the contract, or comparing with it proves nothing. */
class GraphModelTest extends GraphStoreContract {

    private final AtomicLong ids = new AtomicLong(1_000);

    @Override
    protected GraphStore newStore() {
        return new GraphModel();
    }

    @Override
    protected long freshId() {
        return ids.incrementAndGet();
    }
}
