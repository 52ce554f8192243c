-- Use a recovery code once: if its hash is still the one verified, it goes, the password is
-- the new one and every session ends, at once (of two uses of one code, one succeeds).
-- KEYS[1] the player's hash, KEYS[2] its sessions, KEYS[3] its recovery codes
-- ARGV[1] the code's name, ARGV[2] its hash as verified, ARGV[3] the new password's hash
-- Returns 1 when used now, else 0 (nothing changed).
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HGET', KEYS[3], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HSET', KEYS[1], 'password', ARGV[3])
redis.call('DEL', KEYS[2])
return 1
