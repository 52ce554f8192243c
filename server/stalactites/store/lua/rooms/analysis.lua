-- A finished room's analysis, kept beside its record: the first writer wins.
-- KEYS[1] the room hash, KEYS[2] the analysis; ARGV[1] the analysis (JSON), or "" to read.
-- Returns the analysis kept (false: none, or the room is gone).  The analysis expires with
-- the room hash: each call sets its expiry to the room's (none, once the room is kept for good).
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then
  return false
end
local kept = redis.call('GET', KEYS[2])
if not kept then
  if ARGV[1] == '' then
    return false
  end
  kept = ARGV[1]
  redis.call('SET', KEYS[2], kept)
end
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[2], ttl)
else
  redis.call('PERSIST', KEYS[2])
end
return kept
