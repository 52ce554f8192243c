-- The end of a race, if the room is still racing at the expected version.
-- KEYS: 1 room hash, 2 event list, and on one Redis server 3 the results log and 4 the
--       deadlines (on a Cluster the store appends to them after this script)
-- ARGV: 1 bell channel, 2 event-log cap, 3 expected version, 4 results JSON,
--       5 number of finishers, 6 room id, 7 when the room is due again if its results are not
--       recorded by then (ms), then (player id, place, finish, elapsed ms) per finisher,
--       then the events
-- Answers finished, not_racing or conflict.
--#include room_append
--#include results_finished
if redis.call('HGET', KEYS[1], 'status') ~= 'racing' then return 'not_racing' end
if tonumber(redis.call('HGET', KEYS[1], 'version')) ~= tonumber(ARGV[3]) then
  return 'conflict'
end
local count = tonumber(ARGV[5])
for i = 0, count - 1 do
  local at = 8 + 4 * i
  local pid = ARGV[at]
  redis.call('HSET', KEYS[1], 'place:' .. pid, ARGV[at + 1])
  if redis.call('HEXISTS', KEYS[1], 'finish:' .. pid) == 0 then
    redis.call('HSET', KEYS[1], 'finish:' .. pid, ARGV[at + 2], 'elapsed:' .. pid, ARGV[at + 3])
  end
end
redis.call('HSET', KEYS[1], 'status', 'finished', 'results', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'version', 1)
local events = {}
for i = 8 + 4 * count, #ARGV do events[#events + 1] = ARGV[i] end
append(events)
if #KEYS >= 4 then finished_race(KEYS[3], KEYS[4], ARGV[6], ARGV[7]) end
return 'finished'
