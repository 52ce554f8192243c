-- Make a tournament due at a time or sooner, and bump its generation (the due index).
-- KEYS: 1 due zset, 2 generations hash; ARGV: 1 tournament id, 2 at ms
local current = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not current or tonumber(ARGV[2]) < tonumber(current) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
end
redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
return 1
