-- Hold (or renew) one tab's presence lease.
-- KEYS[1] the player's tabs (sorted set: tab -> lease until, unix ms)
-- ARGV[1] the tab, ARGV[2] its lease's end, ARGV[3] now, ARGV[4] "1": a renewal (a tab whose
-- lease is gone, closed meanwhile, is not held again)
-- Returns 1 if the player had no live tab before (and the tab is held now), -1 if a renewal
-- found the tab gone (nothing held), else 0.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
if ARGV[4] == '1' and not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
    return -1
end
local before = redis.call('ZCARD', KEYS[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], newest[2])
if before == 0 then
    return 1
end
return 0
