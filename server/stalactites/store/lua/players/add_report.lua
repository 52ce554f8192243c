-- Remember a report a player made, the newest ARGV[3] of them; the list expires with an
-- expiring player (touch.lua moves it on, a player kept keeps it).
-- KEYS[1] the player's hash, KEYS[2] the reports it made (sorted set: JSON by time)
-- ARGV[1] the report (JSON), ARGV[2] when (unix ms), ARGV[3] how many are kept
-- Returns 1, or 0 for no such player.
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -tonumber(ARGV[3]) - 1)
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1
