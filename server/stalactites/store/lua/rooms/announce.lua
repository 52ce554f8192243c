-- Announce the number of spectators (live leases) when it changed, at most once a gap.
-- KEYS: 1 room hash, 2 event list, 3 the spectators' leases (connection scored by expiry)
-- ARGV: 1 bell channel, 2 event-log cap, 3 now, 4 the least time between two announcements
--       (ms), 5 and 6 the spectators event before and after its count
-- Answers -1 when nothing is left to announce, else the time from which to try again.
--#include room_append
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HGET', KEYS[1], 'status') == 'finished' then return -1 end
local now = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local count = redis.call('ZCARD', KEYS[3])
if count == tonumber(redis.call('HGET', KEYS[1], 'spectators') or '0') then return -1 end
local due = tonumber(redis.call('HGET', KEYS[1], 'spectators_at') or '0') + tonumber(ARGV[4])
if now < due then return due end
redis.call('HSET', KEYS[1], 'spectators', count, 'spectators_at', now)
append({ARGV[5] .. count .. ARGV[6]})
return -1
