-- A page of a player's history, newest first.
-- KEYS[1] the history order (sorted set of marks FINISHED_AT:ROOM_ID, all scored 0),
-- KEYS[2] the history (room id -> stored entry), KEYS[3] the player's hash
-- ARGV[1] the mark to read before ('' from the newest), ARGV[2] the page's size
-- Returns {mark, entry (false if gone), mark, entry, ..., 1 if there may be more else 0}, or
-- 'no_player'.
if redis.call('EXISTS', KEYS[3]) == 0 then return 'no_player' end
local top = '+'
if ARGV[1] ~= '' then top = '(' .. ARGV[1] end
local limit = tonumber(ARGV[2])
local marks = redis.call('ZREVRANGEBYLEX', KEYS[1], top, '-', 'LIMIT', 0, limit + 1)
local count = math.min(#marks, limit)
local page = {}
if count > 0 then
  local rooms = {}
  for i = 1, count do rooms[i] = string.match(marks[i], '^%d+:(.+)$') end
  local entries = redis.call('HMGET', KEYS[2], unpack(rooms))
  for i = 1, count do
    page[2 * i - 1] = marks[i]
    page[2 * i] = entries[i]
  end
end
page[2 * count + 1] = #marks > limit and 1 or 0
return page
