-- Mark a player ready; when every seat is taken and ready, begin the countdown.
-- KEYS: 1 room hash, 2 event list
-- ARGV: 1 bell channel, 2 event-log cap, 3 player id, 4 the player event, 5 starts_at,
--       6 ends_at, 7 the countdown event
-- Answers {'ok', 1 if this began the countdown else 0}, or {code}.
--#include room_append
local pid = ARGV[3]
if redis.call('HEXISTS', KEYS[1], 'player:' .. pid) == 0 then return {'room_not_found'} end
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'finished' then return {'already_finished'} end
if status ~= 'waiting' or redis.call('HEXISTS', KEYS[1], 'ready:' .. pid) == 1 then
  return {'ok', 0}
end
redis.call('HSET', KEYS[1], 'ready:' .. pid, 1)
local ready = redis.call('HINCRBY', KEYS[1], 'ready', 1)
local seats = tonumber(redis.call('HGET', KEYS[1], 'seats'))
local count = tonumber(redis.call('HGET', KEYS[1], 'players'))
local events = {ARGV[4]}
local begins = 0
if ready == seats and count == seats then
  redis.call('HSET', KEYS[1], 'status', 'countdown', 'starts_at', ARGV[5], 'ends_at', ARGV[6])
  events[2] = ARGV[7]
  begins = 1
end
append(events)
return {'ok', begins}
