-- A page of a game's leaderboard with what each line shows, in one read.
-- KEYS[1] the board (sorted set: player id scored by μ - 3σ), KEYS[2] the lines (player id ->
-- what a page shows of them, a JSON object)
-- ARGV[1] the offset, ARGV[2] the page's size
-- Returns {{player id, score, ...} highest first, the lines as one JSON array (null for a
-- line unknown)}: one decoding for the page, and no string made per line here.
local offset, limit = tonumber(ARGV[1]), tonumber(ARGV[2])
local flat = redis.call('ZREVRANGE', KEYS[1], offset, offset + limit - 1, 'WITHSCORES')
if #flat == 0 then return {flat, '[]'} end
local ids = {}
for i = 1, #flat, 2 do ids[#ids + 1] = flat[i] end
local lines = redis.call('HMGET', KEYS[2], unpack(ids))
for i = 1, #lines do
  if not lines[i] then lines[i] = 'null' end
end
return {flat, '[' .. table.concat(lines, ',') .. ']'}
