-- Move an expiring player's expiry on (a session of it was used); a kept player is left alone.
-- KEYS[1] the player's hash, KEYS[2] its sessions, KEYS[3] the reports it made
-- ARGV[1] when it expires now (unix ms), ARGV[2] its time to live from now (ms)
-- Returns the skeleton its name is claimed under (its claim expires with it), or false.
if redis.call('HEXISTS', KEYS[1], 'expires') == 0 then return false end
redis.call('HSET', KEYS[1], 'expires', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('PEXPIRE', KEYS[3], ARGV[2])
return redis.call('HGET', KEYS[1], 'claim') or ''
