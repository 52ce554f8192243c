-- Claim this tournament if it is due.
-- KEYS: 1 due zset, 2 generations hash; ARGV: 1 tournament id, 2 now, 3 lease ms
local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not at or tonumber(at) > tonumber(ARGV[2]) then return false end
redis.call('ZADD', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[1])
return redis.call('HGET', KEYS[2], ARGV[1]) or '0'
