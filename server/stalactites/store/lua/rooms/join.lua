-- Seat a player while the room is waiting and has a free seat.
-- KEYS: 1 room hash, 2 event list
-- ARGV: 1 bell channel, 2 event-log cap, 3 player id, 4 player JSON, 5 progress JSON,
--       6 the player event, 7 the name's confusable skeleton ('': unchecked)
-- Answers joined, room_not_found, seats_reserved (a round's room), room_full, already_seated
-- (the player id has a seat) or name_confusable (a seated name's skeleton, kept in the field
-- skeleton:SKELETON, is this).
--#include room_append
if redis.call('EXISTS', KEYS[1]) == 0 then return 'room_not_found' end
if redis.call('HEXISTS', KEYS[1], 'reserved') == 1 then return 'seats_reserved' end
if redis.call('HGET', KEYS[1], 'status') ~= 'waiting' then return 'room_full' end
local seats = tonumber(redis.call('HGET', KEYS[1], 'seats'))
local count = tonumber(redis.call('HGET', KEYS[1], 'players'))
if count >= seats then return 'room_full' end
local pid = ARGV[3]
if redis.call('HEXISTS', KEYS[1], 'player:' .. pid) == 1 then return 'already_seated' end
if ARGV[7] ~= '' and redis.call('HSETNX', KEYS[1], 'skeleton:' .. ARGV[7], pid) == 0 then
  return 'name_confusable'
end
count = redis.call('HINCRBY', KEYS[1], 'players', 1)
redis.call('HSET', KEYS[1], 'player:' .. pid, ARGV[4], 'seat:' .. pid, count,
  'progress:' .. pid, ARGV[5])
append({ARGV[6]})
return 'joined'
