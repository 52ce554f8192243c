-- Whether a board spectators are shown can still be won, by position: the first writer wins,
-- so every process shows the same verdict.
-- KEYS[1] the room hash, KEYS[2] the verdicts hash; ARGV[1] the position, ARGV[2] the verdict
-- ("won", "lost" or "unknown"), or "" to read; ARGV[3] the verdicts' longest expiry (ms).
-- Returns the verdict kept (false: none, or the room is gone).  Each write sets the verdicts'
-- expiry to the room hash's, or to ARGV[3] if that is sooner (or the room hash has none).
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then
  return false
end
local kept = redis.call('HGET', KEYS[2], ARGV[1])
if not kept then
  if ARGV[2] == '' then
    return false
  end
  kept = ARGV[2]
  redis.call('HSET', KEYS[2], ARGV[1], kept)
  local longest = tonumber(ARGV[3])
  if ttl < 0 or ttl > longest then
    ttl = longest
  end
  redis.call('PEXPIRE', KEYS[2], ttl)
end
return kept
