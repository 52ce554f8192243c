-- Keep one notification, once, and only the newest ones.
-- KEYS[1] the player's notes (hash: id -> document), KEYS[2] their order (sorted set: id -> ms)
-- ARGV[1] the id, ARGV[2] the document, ARGV[3] its time (unix ms), ARGV[4] how many are kept
-- Returns 1 if it is new, 0 if it was kept already.
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then
    return 0
end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
local extra = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
if extra > 0 then
    local old = redis.call('ZRANGE', KEYS[2], 0, extra - 1)
    redis.call('ZREM', KEYS[2], unpack(old))
    redis.call('HDEL', KEYS[1], unpack(old))
end
return 1
