-- Set a player's line on a game's leaderboard, unless a newer change is there already.
-- KEYS[1] the board (sorted set: each line PLAYER_ID|SHOWN scored by μ - 3σ), KEYS[2] the
-- versions (player id -> the version of the change that set its line), KEYS[3] the lines
-- (player id -> what its line shows now, SHOWN: RATING|RACES|NAME)
-- ARGV[1] the player id, ARGV[2] this change's version, ARGV[3] the score ('' for off the
-- board), ARGV[4] what the line shows
-- Returns 1 if it was set, 0 if a newer change was there.
local seen = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '-1')
local version = tonumber(ARGV[2])
if seen > version then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local shown = redis.call('HGET', KEYS[3], ARGV[1])
if shown then redis.call('ZREM', KEYS[1], ARGV[1] .. '|' .. shown) end
redis.call('ZREM', KEYS[1], ARGV[1])  -- a line stored before lines showed anything
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[3], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1] .. '|' .. ARGV[4])
  redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
end
return 1
