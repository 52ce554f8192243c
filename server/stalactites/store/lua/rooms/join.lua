-- Seat a player while the room is waiting and has a free seat.
-- KEYS: 1 room hash, 2 event list
-- ARGV: 1 bell channel, 2 event-log cap, 3 player id, 4 player JSON, 5 progress JSON,
--       6 the player event
-- Answers joined, room_not_found, seats_reserved (a round's room) or room_full.
--#include room_append
if redis.call('EXISTS', KEYS[1]) == 0 then return 'room_not_found' end
if redis.call('HEXISTS', KEYS[1], 'reserved') == 1 then return 'seats_reserved' end
if redis.call('HGET', KEYS[1], 'status') ~= 'waiting' then return 'room_full' end
local seats = tonumber(redis.call('HGET', KEYS[1], 'seats'))
local count = tonumber(redis.call('HGET', KEYS[1], 'players'))
if count >= seats then return 'room_full' end
local pid = ARGV[3]
count = redis.call('HINCRBY', KEYS[1], 'players', 1)
redis.call('HSET', KEYS[1], 'player:' .. pid, ARGV[4], 'seat:' .. pid, count,
  'progress:' .. pid, ARGV[5])
append({ARGV[6]})
return 'joined'
