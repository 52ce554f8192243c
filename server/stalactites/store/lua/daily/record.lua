-- Put a finished official attempt on the day's leaderboard, once.
-- KEYS: 1 the day's official hash, 2 the leaderboard (sorted set, all scored 0, members the
--       entries' rank keys), 3 the entries (rank key -> entry JSON), 4 placed (player -> key)
-- ARGV: 1 player id, 2 room id, 3 rank key, 4 entry JSON, 5 time to live (ms)
-- Answers 1 when the attempt is (now or already) on the board, 0 when it is not official.
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
if redis.call('HSETNX', KEYS[4], ARGV[1], ARGV[3]) == 1 then
  redis.call('ZADD', KEYS[2], 0, ARGV[3])
  redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
end
for i = 2, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
return 1
