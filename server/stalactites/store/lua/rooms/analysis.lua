-- Keep a finished room's analysis beside its record: the first writer wins.
-- KEYS[1] the room hash, KEYS[2] the analysis; ARGV[1] the analysis (JSON).
-- Returns the analysis kept, or false when the room is gone.  It expires with the room hash.
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then
  return false
end
local kept = redis.call('GET', KEYS[2])
if kept then
  return kept
end
if ttl > 0 then
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ttl)
else
  redis.call('SET', KEYS[2], ARGV[1])
end
return ARGV[1]
