-- Announce whether a player is connected (holds a live presence lease) when that changed since
-- the last announcement of theirs; nothing once the race has finished.
-- KEYS: 1 room hash, 2 event list, 3 the players' leases (PID|connection scored by expiry)
-- ARGV: 1 bell channel, 2 event-log cap, 3 now, 4 player id, 5 the event if connected,
--       6 the event if not
-- Answers 1 if an event was appended, else 0 (so a repeat changes nothing).
--#include room_append
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HGET', KEYS[1], 'status') == 'finished' then return 0 end
local prefix = ARGV[4] .. '|'
local live = 0
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '(' .. ARGV[3], '+inf')) do
  if string.sub(member, 1, #prefix) == prefix then
    live = 1
    break
  end
end
local field = 'online:' .. ARGV[4]
if tonumber(redis.call('HGET', KEYS[1], field) or '0') == live then return 0 end
redis.call('HSET', KEYS[1], field, live)
append({live == 1 and ARGV[5] or ARGV[6]})
return 1
