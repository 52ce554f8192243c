-- A room's leases taken or renewed, one or many at once (a connection's on its hello, the
-- upkeep's for all of a room's here): players' presence and spectators', in sorted sets that
-- expire with their room.
-- KEYS: 1 room hash, 2 the presence leases, 3 the spectators' leases
-- ARGV: 1 until (ms), 2 drop presence leases ending before this, 3 how many presence members
--       follow, then those members ("player id|connection"), then the spectators' connections
-- Nothing is stored for a room that is gone.  Answers 1 if stored, else 0.
local ttl = redis.call('HGET', KEYS[1], 'ttl')
if not ttl then return 0 end
local players = tonumber(ARGV[3])
local function renew(key, first, last)  -- ZADD in slices: unpack() takes some 8,000 values
  for start = first, last, 1000 do
    local members = {}
    for i = start, math.min(start + 999, last) do
      members[#members + 1] = ARGV[1]
      members[#members + 1] = ARGV[i]
    end
    redis.call('ZADD', key, unpack(members))
  end
  redis.call('PEXPIRE', key, ttl)
end
if players > 0 then
  renew(KEYS[2], 4, 3 + players)
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
end
if #ARGV > 3 + players then renew(KEYS[3], 4 + players, #ARGV) end
return 1
