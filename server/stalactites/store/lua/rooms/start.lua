-- The countdown is over: the race is on.
-- KEYS: 1 room hash, 2 event list
-- ARGV: 1 bell channel, 2 event-log cap, 3 now, 4 the started event
-- Answers 1 if this call started the race, else 0.
--#include room_append
if redis.call('HGET', KEYS[1], 'status') ~= 'countdown' then return 0 end
if tonumber(ARGV[3]) < tonumber(redis.call('HGET', KEYS[1], 'starts_at')) then return 0 end
redis.call('HSET', KEYS[1], 'status', 'racing')
redis.call('HINCRBY', KEYS[1], 'version', 1)
append({ARGV[4]})
return 1
