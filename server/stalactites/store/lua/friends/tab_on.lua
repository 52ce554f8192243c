-- Hold (or renew) one tab's presence lease.
-- KEYS[1] the player's tabs (sorted set: tab -> lease until, unix ms)
-- ARGV[1] the tab, ARGV[2] its lease's end, ARGV[3] now
-- Returns 1 if the player had no live tab before, else 0.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
local before = redis.call('ZCARD', KEYS[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], newest[2])
if before == 0 then
    return 1
end
return 0
