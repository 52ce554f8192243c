-- Drop one tab's presence lease.
-- KEYS[1] the player's tabs (sorted set: tab -> lease until, unix ms)
-- ARGV[1] the tab, ARGV[2] now
-- Returns 1 if the player has no live tab left, else 0.
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
if redis.call('ZCARD', KEYS[1]) == 0 then
    return 1
end
return 0
