-- A lease (a player's presence or a spectator's) in a sorted set that expires with its room.
-- KEYS: 1 room hash, 2 the leases (member scored by expiry)
-- ARGV: 1 until (ms), 2 member, 3 drop leases ending before this ('' to keep them)
-- Nothing is stored for a room that is gone.  Answers 1 if stored, else 0.
local ttl = redis.call('HGET', KEYS[1], 'ttl')
if not ttl then return 0 end
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[2])
if ARGV[3] ~= '' then redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3]) end
redis.call('PEXPIRE', KEYS[2], ttl)
return 1
