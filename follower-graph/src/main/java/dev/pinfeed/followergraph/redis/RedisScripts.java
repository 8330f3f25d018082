package dev.pinfeed.followergraph.redis;

import dev.pinfeed.followergraph.sharded.GraphBackend;
import dev.pinfeed.followergraph.sharded.Register;

/**
 * The Lua scripts behind {@link GraphBackend}'s atomic writes. Each touches keys of one hash tag only
 * (one shard), passed in KEYS, so it would run unchanged on Redis Cluster. They hold no follow rules:
 * those are in {@code PairRules}, above every backend.
 */
final class RedisScripts {

    private RedisScripts() {}

    /**
     * KEYS: register hash, user-register hash, pair board-register hash, pair-sequence hash.
     * ARGV: register field, new value, user field, sequence field.
     * Last writer wins on the fixed-width version prefix; the sequence moves only on a change.
     * Returns {user register or '', {board field, value, ...}, sequence}.
     */
    static final String CAS_REGISTER = """
            local cur = redis.call('HGET', KEYS[1], ARGV[1])
            local width = %d
            if (not cur) or string.sub(cur, 1, width) < string.sub(ARGV[2], 1, width) then
              redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
              redis.call('HINCRBY', KEYS[4], ARGV[4], 1)
            end
            return {redis.call('HGET', KEYS[2], ARGV[3]) or '', redis.call('HGETALL', KEYS[3]),
                    redis.call('HGET', KEYS[4], ARGV[4]) or '0'}
            """.formatted(Register.VERSION_KEY_LENGTH);

    /**
     * KEYS[1]: guard hash; KEYS[2..]: keys the mutations name by index.
     * ARGV: guard field ('' = unguarded), sequence, then per mutation: op, key index, member, value.
     * Applies all mutations only if the stored sequence is below the given one. Returns 1 if applied.
     */
    static final String APPLY = """
            if ARGV[1] ~= '' then
              local stored = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
              if stored >= tonumber(ARGV[2]) then return 0 end
              redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
            end
            for i = 3, #ARGV, 4 do
              local op, key, member, value = ARGV[i], KEYS[tonumber(ARGV[i + 1])], ARGV[i + 2], ARGV[i + 3]
              if op == 'ZADD' then redis.call('ZADD', key, value, member)
              elseif op == 'ZADD_LT' then redis.call('ZADD', key, 'LT', value, member)
              elseif op == 'ZREM' then redis.call('ZREM', key, member)
              elseif op == 'SADD' then redis.call('SADD', key, member)
              elseif op == 'SREM' then redis.call('SREM', key, member)
              elseif op == 'HSET' then redis.call('HSET', key, member, value)
              elseif op == 'HDEL' then redis.call('HDEL', key, member)
              else return redis.error_reply('unknown op ' .. op) end
            end
            return 1
            """;

    /** KEYS[1]: owner bucket; ARGV: board, owner. Returns the recorded owner (claiming ARGV[2] if none). */
    static final String CLAIM_OWNER = """
            local cur = redis.call('HGET', KEYS[1], ARGV[1])
            if cur then return cur end
            redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
            return ARGV[2]
            """;
}
