-- The end of a race, if the room is still racing at the expected version.
-- KEYS: 1 room hash, 2 event list
-- ARGV: 1 bell channel, 2 event-log cap, 3 expected version, 4 results JSON,
--       5 number of finishers, then (player id, place, finish, elapsed ms) per finisher,
--       then the events
-- Answers finished, not_racing or conflict.
--#include room_append
if redis.call('HGET', KEYS[1], 'status') ~= 'racing' then return 'not_racing' end
if tonumber(redis.call('HGET', KEYS[1], 'version')) ~= tonumber(ARGV[3]) then
  return 'conflict'
end
local count = tonumber(ARGV[5])
for i = 0, count - 1 do
  local at = 6 + 4 * i
  local pid = ARGV[at]
  redis.call('HSET', KEYS[1], 'place:' .. pid, ARGV[at + 1])
  if redis.call('HEXISTS', KEYS[1], 'finish:' .. pid) == 0 then
    redis.call('HSET', KEYS[1], 'finish:' .. pid, ARGV[at + 2], 'elapsed:' .. pid, ARGV[at + 3])
  end
end
redis.call('HSET', KEYS[1], 'status', 'finished', 'results', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'version', 1)
local events = {}
for i = 6 + 4 * count, #ARGV do events[#events + 1] = ARGV[i] end
append(events)
return 'finished'
