package dev.pinfeed.operations.shards;

import dev.pinfeed.redisshards.VirtualShards;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/** The keys a Redis virtual-shard move carries: those under the deployment's key prefix whose hash tag is a shard of {@code first..last}. */
record RangeKeys(String prefix, int first, int last) {

    boolean contains(String key) {
        int shard = VirtualShards.shardOfKey(key);
        return key.startsWith(prefix) && shard >= first && shard <= last;
    }

    /** A Redis glob (SCAN MATCH, PSUBSCRIBE) of the prefix, taken literally, followed by {@code rest}. */
    String glob(String rest) {
        StringBuilder out = new StringBuilder();
        for (char c : prefix.toCharArray()) {
            if ("*?[]\\".indexOf(c) >= 0) out.append('\\');
            out.append(c);
        }
        return out.append(rest).toString();
    }

    /** Every key of the range on {@code jedis} (SCAN, so the server is never blocked), one SCAN step's keys at a time. */
    void scan(Jedis jedis, Consumer<List<String>> step) {
        String cursor = ScanParams.SCAN_POINTER_START;
        ScanParams params = new ScanParams().match(glob("*{v*")).count(1000);
        do {
            ScanResult<String> result = jedis.scan(cursor, params);
            List<String> keys = new ArrayList<>();
            for (String key : result.getResult()) if (contains(key)) keys.add(key);
            if (!keys.isEmpty()) step.accept(keys);
            cursor = result.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    }
}
