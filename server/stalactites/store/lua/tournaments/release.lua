-- Done with a claim: due next at a time, never (finished), or now if poked since the claim.
-- KEYS: 1 due zset, 2 generations hash
-- ARGV: 1 tournament id, 2 generation claimed, 3 next ms ('' for never), 4 now
local generation = redis.call('HGET', KEYS[2], ARGV[1]) or '0'
if generation ~= ARGV[2] then
  local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
  if not at or tonumber(at) > tonumber(ARGV[4]) then
    redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
  end
elseif ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
