-- Make a room the finished room's rematch, unless it has one: one rematch however many propose.
-- KEYS: 1 room hash, 2 event list
-- ARGV: 1 bell channel, 2 event-log cap, 3 the new room's id, 4 the rematch event,
--       5 the proposer's player id (kept as rematch_by, for a view of the room opened later)
-- Answers the rematch room's id (the one stored before, or ARGV[3]), or false: no such room,
-- or not finished.
--#include room_append
if redis.call('HGET', KEYS[1], 'status') ~= 'finished' then return false end
local stored = redis.call('HGET', KEYS[1], 'rematch')
if stored then return stored end
redis.call('HSET', KEYS[1], 'rematch', ARGV[3], 'rematch_by', ARGV[5])
append({ARGV[4]})
return ARGV[3]
