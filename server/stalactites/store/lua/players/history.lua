-- A page of a player's history, newest first, as one JSON array (one decoding for the page).
-- KEYS[1] the history order (sorted set of marks FINISHED_AT:ROOM_ID, all scored 0),
-- KEYS[2] the history (room id -> stored entry, a JSON array)
-- ARGV[1] the mark to read before ('' from the newest), ARGV[2] the page's size
-- Returns {'[["MARK",ENTRY],...]', 1 if there may be more else 0}; an entry gone (never,
-- but for a half-deleted player) is null.
local top = '+'
if ARGV[1] ~= '' then top = '(' .. ARGV[1] end
local limit = tonumber(ARGV[2])
local marks = redis.call('ZREVRANGEBYLEX', KEYS[1], top, '-', 'LIMIT', 0, limit + 1)
local count = math.min(#marks, limit)
if count == 0 then return {'[]', 0} end
local rooms = {}
for i = 1, count do rooms[i] = string.match(marks[i], '^%d+:(.+)$') end
local entries = redis.call('HMGET', KEYS[2], unpack(rooms))
local page = {}
for i = 1, count do page[i] = '["' .. marks[i] .. '",' .. (entries[i] or 'null') .. ']' end
return {'[' .. table.concat(page, ',') .. ']', #marks > limit and 1 or 0}
