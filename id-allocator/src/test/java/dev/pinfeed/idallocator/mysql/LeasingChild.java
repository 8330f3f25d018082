package dev.pinfeed.idallocator.mysql;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedIdAllocator;
import java.io.PrintStream;

/**
 * Child JVM of {@link LeaseCrashRestartIT}: leases sharded IDs of one (type, shard) from MySQL on
 * two threads and prints each as soon as it is issued, until it is killed.
 * Args: type shard blockSize.
 */
public final class LeasingChild {

    public static void main(String[] args) throws InterruptedException {
        ObjectType type = ObjectType.byName(args[0]);
        int shard = Integer.parseInt(args[1]);
        int blockSize = Integer.parseInt(args[2]);
        PrintStream out = System.out;
        MysqlSequenceStore store = MysqlSequenceStore.from(PinfeedConfig.load());
        ShardedIdAllocator allocator = new ShardedIdAllocator(store, blockSize);
        Runnable issue = () -> {
            while (true) {
                long id = allocator.newId(type, shard);
                synchronized (out) {
                    out.println(id);
                    out.flush();
                }
            }
        };
        Thread a = new Thread(issue, "issuer-a");
        Thread b = new Thread(issue, "issuer-b");
        a.start();
        b.start();
        a.join();
    }
}
