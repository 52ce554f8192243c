-- A page of a game's leaderboard with what each line shows, as one JSON array (one read,
-- one decoding).
-- KEYS[1] the board (sorted set: player id scored by μ - 3σ), KEYS[2] the lines (player id ->
-- what a page shows of them, a JSON object)
-- ARGV[1] the offset, ARGV[2] the page's size
-- Returns '[["PLAYER_ID",SCORE,LINE or null],...]', highest first.
local offset, limit = tonumber(ARGV[1]), tonumber(ARGV[2])
local flat = redis.call('ZREVRANGE', KEYS[1], offset, offset + limit - 1, 'WITHSCORES')
if #flat == 0 then return '[]' end
local ids = {}
for i = 1, #flat, 2 do ids[#ids + 1] = flat[i] end
local lines = redis.call('HMGET', KEYS[2], unpack(ids))
local page = {}
for i = 1, #ids do
  page[i] = '["' .. ids[i] .. '",' .. flat[2 * i] .. ',' .. (lines[i] or 'null') .. ']'
end
return '[' .. table.concat(page, ',') .. ']'
