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
     * KEYS: register hash, user-register hash, pair board-register hash, pair-sequence hash, and optionally the follower
     * side's sorted set. ARGV: register field, new value, user field, sequence field, and with that set its member and the
     * applied-sequence field.
     * Last writer wins on the fixed-width version prefix; the sequence moves only on a change. With the follower side given
     * and no board registers, that side is written from the user register unless its applied sequence is already the
     * pair's, as {@link #APPLY} would ({@link GraphBackend#casRegister}).
     * Returns {user register or '', {board field, value, ...}, sequence, 1 if the follower side was written else 0}: no
     * board registers when the board-register hash is the user-register hash (an interest edge). Reads back only what the
     * write did not tell it.
     */
    static final String CAS_REGISTER = """
            local cur = redis.call('HGET', KEYS[1], ARGV[1])
            local width = %d
            local seq
            if (not cur) or string.sub(cur, 1, width) < string.sub(ARGV[2], 1, width) then
              redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
              seq = redis.call('HINCRBY', KEYS[4], ARGV[4], 1)
              cur = ARGV[2]
            else
              seq = redis.call('HGET', KEYS[4], ARGV[4]) or '0'
            end
            local user = cur
            if KEYS[2] ~= KEYS[1] or ARGV[3] ~= ARGV[1] then user = redis.call('HGET', KEYS[2], ARGV[3]) end
            local boards = {}
            if KEYS[3] ~= KEYS[2] then boards = redis.call('HGETALL', KEYS[3]) end
            local written = 0
            if KEYS[5] and #boards == 0 and user then
              -- The guard of APPLY: a side already at this sequence (a replay) is left as it is.
              if tonumber(redis.call('HGET', KEYS[4], ARGV[6]) or '0') < tonumber(seq) then
                redis.call('HSET', KEYS[4], ARGV[6], seq)
                if string.sub(user, width + 1, width + 1) == '%s' then
                  redis.call('ZADD', KEYS[5], string.sub(user, 1, %d), ARGV[5])
                else
                  redis.call('ZREM', KEYS[5], ARGV[5])
                end
              end
              written = 1
            end
            return {user or '', boards, seq, written}
            """.formatted(Register.VERSION_KEY_LENGTH, Register.FOLLOW, Register.AT_LENGTH);

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

    /**
     * A pair's repair (the audit's). KEYS: user-register hash, pair board-register hash, pair-sequence hash.
     * ARGV: user field, sequence field, applied-sequence field, floor, then per register fix:
     * key index (1 or 2), field, observed present (0/1), observed, fixed present (0/1), fixed.
     * A fix applies only if the field still holds what the repair observed. The new sequence exceeds the
     * stored ones (malformed = 0) and the floor. Returns {user register or '', {board field, value, ...},
     * sequence, fixes skipped}.
     */
    static final String RESET_PAIR = """
            local skipped = 0
            for i = 5, #ARGV, 6 do
              local key, field = KEYS[tonumber(ARGV[i])], ARGV[i + 1]
              local cur = redis.call('HGET', key, field)
              if (cur == false and ARGV[i + 2] == '0') or (cur ~= false and ARGV[i + 2] == '1' and cur == ARGV[i + 3]) then
                if ARGV[i + 4] == '1' then redis.call('HSET', key, field, ARGV[i + 5]) else redis.call('HDEL', key, field) end
              else
                skipped = skipped + 1
              end
            end
            local seq = math.max(tonumber(redis.call('HGET', KEYS[3], ARGV[2]) or '0') or 0,
                                 tonumber(redis.call('HGET', KEYS[3], ARGV[3]) or '0') or 0, tonumber(ARGV[4])) + 1
            seq = string.format('%d', seq)
            redis.call('HSET', KEYS[3], ARGV[2], seq)
            return {redis.call('HGET', KEYS[1], ARGV[1]) or '', redis.call('HGETALL', KEYS[2]), seq, skipped}
            """;

    /**
     * A key's repair (the audit's). KEYS[1]: the key. ARGV: its type (zset, set, hash), a wrong type to delete
     * first ('' = none), then per member: member, observed present (0/1), observed, fixed present (0/1), fixed.
     * With a wrong type given, a key of another type is left alone (-1). A member is set only if it still holds
     * what the repair observed (scores compared as numbers). Returns how many members were set.
     */
    static final String FIX_KEY = """
            local key, kind = KEYS[1], ARGV[1]
            if ARGV[2] ~= '' then
              if redis.call('TYPE', key).ok ~= ARGV[2] then return -1 end
              redis.call('DEL', key)
            end
            local applied = 0
            for i = 3, #ARGV, 5 do
              local member = ARGV[i]
              local cur
              if kind == 'zset' then cur = redis.call('ZSCORE', key, member)
              elseif kind == 'set' then cur = redis.call('SISMEMBER', key, member) == 1 and '' or false
              else cur = redis.call('HGET', key, member) end
              local same
              if cur == false or ARGV[i + 1] == '0' then same = (cur == false and ARGV[i + 1] == '0')
              elseif kind == 'zset' then same = tonumber(cur) == tonumber(ARGV[i + 2])
              else same = cur == ARGV[i + 2] end
              if same then
                local set = ARGV[i + 3] == '1'
                if kind == 'zset' then
                  if set then redis.call('ZADD', key, ARGV[i + 4], member) else redis.call('ZREM', key, member) end
                elseif kind == 'set' then
                  if set then redis.call('SADD', key, member) else redis.call('SREM', key, member) end
                else
                  if set then redis.call('HSET', key, member, ARGV[i + 4]) else redis.call('HDEL', key, member) end
                end
                applied = applied + 1
              end
            end
            return applied
            """;
}
