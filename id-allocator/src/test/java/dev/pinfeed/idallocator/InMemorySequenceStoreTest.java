package dev.pinfeed.idallocator;

import java.util.concurrent.atomic.AtomicInteger;

class InMemorySequenceStoreTest extends SequenceStoreContract {

    private final InMemorySequenceStore store = new InMemorySequenceStore();
    private final AtomicInteger keys = new AtomicInteger();

    @Override
    protected SequenceStore store() {
        return store;
    }

    @Override
    protected Key freshKey() {
        int n = keys.incrementAndGet();
        return new Key(n * 7 % 65536, n % 1024);
    }

    @Override
    protected void setNext(Key key, long nextLocal) {
        store.setNext(key.shard(), key.typeId(), nextLocal);
    }
}
