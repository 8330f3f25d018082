package dev.pinfeed.feedworker.canonical;

import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalSeed;
import dev.pinfeed.canonicalstore.reads.CanonicalSeed;
import dev.pinfeed.feedworker.CanonicalPins;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** The adapter over the real shard hosts (rows seeded with canonical-store's MySQL seed under fresh ids). */
@ExtendWith(StackExtension.class)
class CanonicalReadsPinsIT extends CanonicalPinsContract {

    private static ShardDataSources sources;
    private static ShardedDb db;
    private TestStack stack;

    @BeforeAll
    static void connect(TestStack s) {
        sources = ShardDataSources.from(s.config(), "feed-worker-it", 4);
        db = new ShardedDb(sources);
    }

    @AfterAll
    static void close() {
        db.close();
        sources.close();
    }

    @BeforeEach
    void stack(TestStack s) {
        stack = s;
    }

    @Override
    protected CanonicalPins pins() {
        return new CanonicalReadsPins(new MysqlCanonicalReads(db));
    }

    @Override
    protected CanonicalSeed seed() {
        return new MysqlCanonicalSeed(db, (id, keys) -> {});
    }

    @Override
    protected long freshLocal() {
        return stack.freshId() & 0xF_FFFF_FFFFL; // a 36-bit local id
    }
}
