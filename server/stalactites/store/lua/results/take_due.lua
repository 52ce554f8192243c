-- The rooms whose deadline has come, each put off by the lease (taken by the caller).
-- KEYS: 1 the deadlines (sorted set: room id scored by its next deadline, ms)
-- ARGV: 1 now (ms), 2 the lease (ms), 3 how many at most
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
local until_ms = tonumber(ARGV[1]) + tonumber(ARGV[2])
for _, room in ipairs(due) do redis.call('ZADD', KEYS[1], until_ms, room) end
return due
