-- A process's lease on hearing a room's bell (a commit rings it only for another process's
-- lease: commit.lua), taken, renewed or given back.
-- KEYS: 1 the room's listeners (sorted set: process -> the end of its lease, Redis's clock, ms)
-- ARGV: 1 the process, 2 the lease in ms (0: give it back)
-- Answers 1 if the process held a lease that had not run out, else 0.
--#include bell_leases
local now_ms = clock_ms()
local live = 0
if lease_live(KEYS[1], ARGV[1], now_ms) then live = 1 end
local lease = tonumber(ARGV[2])
if lease == 0 then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return live
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. now_ms)  -- leases run out
redis.call('ZADD', KEYS[1], now_ms + lease, ARGV[1])
redis.call('PEXPIRE', KEYS[1], lease)  -- the set lasts as long as its newest lease
return live
