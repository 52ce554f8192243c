-- A process's lease on hearing a room's bell (a commit rings it only for another process's
-- lease: commit.lua), taken, renewed or given back.
-- KEYS: 1 the room's listeners (sorted set: process -> the end of its lease, Redis's clock, ms)
-- ARGV: 1 the process, 2 the lease in ms (0: give it back)
-- Answers 1 if the process held a lease that had not run out, else 0.
local clock = redis.call('TIME')
local now_ms = clock[1] * 1000 + math.floor(clock[2] / 1000)
local held = redis.call('ZSCORE', KEYS[1], ARGV[1])
local live = 0
if held and tonumber(held) >= now_ms then live = 1 end
local lease = tonumber(ARGV[2])
if lease == 0 then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return live
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. now_ms)  -- leases run out
redis.call('ZADD', KEYS[1], now_ms + lease, ARGV[1])
redis.call('PEXPIRE', KEYS[1], lease)  -- the set lasts as long as its newest lease
return live
