-- A player's attempt at the day's deal is starting: the first to start is official.
-- KEYS: 1 the day's official hash (player id -> room id)
-- ARGV: 1 player id, 2 the starting attempt's room id, 3 time to live (ms)
-- Answers the player's official room id (ARGV[2] when this attempt is the first).
redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return redis.call('HGET', KEYS[1], ARGV[1])
