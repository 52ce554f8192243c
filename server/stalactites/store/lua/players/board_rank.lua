-- A player's place on a game's leaderboard (0 for the first), nil when not on it.
-- KEYS[1] the board (sorted set: each line PLAYER_ID|SHOWN scored by μ - 3σ), KEYS[2] the
-- lines (player id -> what its line shows now, SHOWN)
-- ARGV[1] the player id
local shown = redis.call('HGET', KEYS[2], ARGV[1])
local rank = shown and redis.call('ZREVRANK', KEYS[1], ARGV[1] .. '|' .. shown)
if not rank then  -- a line stored before lines showed anything: the player id alone
  rank = redis.call('ZREVRANK', KEYS[1], ARGV[1])
end
return rank
