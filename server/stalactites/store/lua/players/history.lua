-- A page of a player's history, newest first.
-- KEYS[1] the history order (sorted set of marks FINISHED_AT:ROOM_ID, all scored 0),
-- KEYS[2] the history (room id -> stored entry)
-- ARGV[1] the mark to read before ('' from the newest), ARGV[2] the page's size
-- Returns {entry, ...} and, last, the page's last mark if there are more ('' if not).
local top = '+'
if ARGV[1] ~= '' then top = '(' .. ARGV[1] end
local limit = tonumber(ARGV[2])
local marks = redis.call('ZREVRANGEBYLEX', KEYS[1], top, '-', 'LIMIT', 0, limit + 1)
local page = {}
for i = 1, math.min(#marks, limit) do
  local room = string.match(marks[i], '^%d+:(.+)$')
  page[#page + 1] = redis.call('HGET', KEYS[2], room) or 'null'
end
if #marks > limit then page[#page + 1] = marks[limit] else page[#page + 1] = '' end
return page
