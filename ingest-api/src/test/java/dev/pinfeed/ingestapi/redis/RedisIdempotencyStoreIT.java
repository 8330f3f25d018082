package dev.pinfeed.ingestapi.redis;

import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.core.IdempotencyStore;
import dev.pinfeed.ingestapi.core.IdempotencyStoreContract;
import dev.pinfeed.redismasters.RedisMasterConfig;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** The idempotency contract against the real Redis instances (real expiry, so the lease test sleeps). */
@ExtendWith(StackExtension.class)
class RedisIdempotencyStoreIT extends IdempotencyStoreContract {

    private TestStack stack;
    private RedisIdempotencyStore store;

    @BeforeEach
    void connect(TestStack stack) {
        this.stack = stack;
        this.store = new RedisIdempotencyStore(RedisIdempotencyStore.clients(RedisMasterConfig.fixed(stack.config())),
                stack.keyPrefix("idem"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Override
    protected IdempotencyStore store() {
        return store;
    }

    @Override
    protected String freshKey() {
        return "k-" + stack.freshId();
    }

    @Override
    protected void elapse(Duration d) throws InterruptedException {
        Thread.sleep(d.toMillis());
    }
}
