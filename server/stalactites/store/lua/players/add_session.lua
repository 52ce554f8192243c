-- Add a session to a player that exists, dropping its expired ones; an expiring player's
-- sessions expire with it.
-- KEYS[1] the player's hash, KEYS[2] the player's sessions (token hash -> expiry, unix ms)
-- ARGV[1] the token's hash, ARGV[2] its expiry, ARGV[3] now (unix ms)
-- Returns 1, or 0 for no such player.
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local now = tonumber(ARGV[3])
local all = redis.call('HGETALL', KEYS[2])
for i = 1, #all, 2 do
  if tonumber(all[i + 1]) <= now then redis.call('HDEL', KEYS[2], all[i]) end
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1
