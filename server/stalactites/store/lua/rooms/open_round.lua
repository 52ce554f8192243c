-- Open a tournament round's room whole: the hash with every entrant seated and ready, the
-- countdown begun and the room closed to anyone else ('reserved'), and its events, in one
-- step.  Nothing is done if the room exists (a repeat of a call whose answer was lost).
-- KEYS: 1 room hash, 2 event list
-- ARGV: 1 bell channel, 2 event-log cap, 3 F, 4 N, then F field, value pairs of the room,
--       then N times (player id, player JSON, progress JSON), then the events
-- Answers 1 when opened, 0 when the room was there.
--#include room_append
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local pairs_count, players = tonumber(ARGV[3]), tonumber(ARGV[4])
local at = 5 + 2 * pairs_count
redis.call('HSET', KEYS[1], unpack(ARGV, 5, at - 1))
for seat = 1, players do
  local pid = ARGV[at]
  redis.call('HSET', KEYS[1], 'player:' .. pid, ARGV[at + 1], 'seat:' .. pid, seat,
    'progress:' .. pid, ARGV[at + 2], 'ready:' .. pid, 1)
  at = at + 3
end
local events = {}
for i = at, #ARGV do events[#events + 1] = ARGV[i] end
append(events)
return 1
