package dev.pinfeed.ingestapi.mysql;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.idallocator.IdAllocationException;
import dev.pinfeed.idallocator.LocalIdBlock;
import dev.pinfeed.idallocator.SequenceStore;
import dev.pinfeed.idallocator.mysql.MysqlSequenceStore;
import dev.pinfeed.mysqlshards.ShardDataSources;
import java.sql.SQLException;

/**
 * Ingest's id-block leases: id-allocator's {@link MysqlSequenceStore} on the shard pools, with a
 * lease that failed because the shard's host was down or refused work for now reported as a
 * {@link StoreUnavailableException} naming the host (id-allocator reports every store failure as an
 * {@link IdAllocationException}; only the pools know which of them are outages).
 */
public final class MysqlSequences implements SequenceStore {

    private final ShardDataSources sources;
    private final MysqlSequenceStore store;

    /** Leases through {@code sources} (autocommit pools) and closes them. */
    public MysqlSequences(ShardDataSources sources) {
        this.sources = sources;
        this.store = new MysqlSequenceStore(sources);
    }

    @Override
    public LocalIdBlock lease(int shard, int typeId, int blockSize) {
        try {
            return store.lease(shard, typeId, blockSize);
        } catch (IdAllocationException e) {
            if (e.getCause() instanceof SQLException sql && ShardDataSources.isUnavailable(sql)) {
                throw new StoreUnavailableException(sources.hostOf(shard), e.getMessage(), e);
            }
            throw e;
        }
    }

    @Override
    public void close() {
        store.close();
    }
}
