-- Every tournament event after a seq (the log is never trimmed).
-- KEYS: 1 tournament hash, 2 events list; ARGV: 1 the seq after which events are wanted
local seq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
local since = tonumber(ARGV[1])
if since >= seq then return {seq, {}} end
return {seq, redis.call('LRANGE', KEYS[2], since, -1)}
