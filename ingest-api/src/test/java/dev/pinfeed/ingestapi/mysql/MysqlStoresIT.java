package dev.pinfeed.ingestapi.mysql;

import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.core.ObjectDirectory;
import dev.pinfeed.ingestapi.core.ObjectDirectoryContract;
import dev.pinfeed.ingestapi.core.UsernameIndex;
import dev.pinfeed.ingestapi.core.UsernameIndexContract;
import dev.pinfeed.mysqlshards.ShardDataSources;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;

/** The directory and username-index contracts against the real MariaDB shard hosts. */
@ExtendWith(StackExtension.class)
class MysqlStoresIT {

    private TestStack stack;
    private ShardDataSources sources;

    @BeforeEach
    void connect(TestStack stack) {
        this.stack = stack;
        this.sources = ShardDataSources.from(stack.config(), "it", 8, MysqlObjectDirectory.DRIVER_PROPERTIES);
    }

    @AfterEach
    void close() {
        sources.close();
    }

    /** Local ids far above what the allocator hands out, distinct per call and run. */
    long freshLocal() {
        return (1L << 35) | (stack.freshId() & ((1L << 35) - 1));
    }

    @Nested
    class Directory extends ObjectDirectoryContract {
        protected ObjectDirectory directory() { return new MysqlObjectDirectory(sources); }
        protected long freshLocalId() { return freshLocal(); }
    }

    @Nested
    class InterestNames extends UsernameIndexContract {
        protected UsernameIndex index() { return MysqlUsernameIndex.interestNames(sources); }
        protected String freshUsername() { return "it-" + Long.toString(stack.freshId(), 36); }
    }

    @Nested
    class Usernames extends UsernameIndexContract {
        protected UsernameIndex index() { return new MysqlUsernameIndex(sources); }
        protected String freshUsername() { return "it" + Long.toString(stack.freshId(), 36); }
    }
}
