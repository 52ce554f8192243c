-- A new hash with its expiry, in one step: a room's (or a tournament's).  Nothing is done
-- if the hash exists (a repeat of a creation whose reply was lost): answers 0, else 1.
-- KEYS: 1 the hash
-- ARGV: 1 ttl ms, then field, value, field, value...
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
