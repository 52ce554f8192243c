-- A new hash with its expiry, in one step: a room's (or a tournament's).
-- KEYS: 1 the hash
-- ARGV: 1 ttl ms, then field, value, field, value...
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
