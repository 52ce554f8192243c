-- Store a race's outcome unless one is stored: the first writer wins.
-- KEYS[1] the race's outcome hash (outcome: JSON, done: 1 once recorded everywhere)
-- ARGV[1] the outcome JSON
-- Returns {the stored outcome JSON, done (0 or 1)}.
redis.call('HSETNX', KEYS[1], 'outcome', ARGV[1])
local stored = redis.call('HMGET', KEYS[1], 'outcome', 'done')
return {stored[1], stored[2] and 1 or 0}
