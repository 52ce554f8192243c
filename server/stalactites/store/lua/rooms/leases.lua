-- Many of a room's leases renewed at once (the upkeep's: lease.lua, one call a room): players'
-- presence and spectators', in sorted sets that expire with their room.
-- KEYS: 1 room hash, 2 the presence leases, 3 the spectators' leases
-- ARGV: 1 until (ms), 2 drop presence leases ending before this, 3 how many presence members
--       follow, then those members ("player id|connection"), then the spectators' connections
-- Nothing is stored for a room that is gone.  Answers 1 if stored, else 0.
local ttl = redis.call('HGET', KEYS[1], 'ttl')
if not ttl then return 0 end
local players = tonumber(ARGV[3])
local presence, watchers = {}, {}
for i = 4, #ARGV do
  local into = watchers
  if i - 3 <= players then into = presence end
  into[#into + 1] = ARGV[1]
  into[#into + 1] = ARGV[i]
end
if #presence > 0 then
  redis.call('ZADD', KEYS[2], unpack(presence))
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ttl)
end
if #watchers > 0 then
  redis.call('ZADD', KEYS[3], unpack(watchers))
  redis.call('PEXPIRE', KEYS[3], ttl)
end
return 1
