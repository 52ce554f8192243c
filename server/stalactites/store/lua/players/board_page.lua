-- A page of a game's leaderboard with what each line shows, in one read.
-- KEYS[1] the board (sorted set: player id scored by μ - 3σ), KEYS[2] the lines (player id ->
-- what a page shows of them, JSON)
-- ARGV[1] the offset, ARGV[2] the page's size
-- Returns {player id, score, line or false, ...}, highest first.
local offset, limit = tonumber(ARGV[1]), tonumber(ARGV[2])
local flat = redis.call('ZREVRANGE', KEYS[1], offset, offset + limit - 1, 'WITHSCORES')
local answer = {}
for i = 1, #flat, 2 do
  answer[#answer + 1] = flat[i]
  answer[#answer + 1] = flat[i + 1]
  answer[#answer + 1] = redis.call('HGET', KEYS[2], flat[i])
end
return answer
