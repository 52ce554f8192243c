-- Delete a player: record, sessions, history, statistics, winning times, recovery codes and
-- reports made, all at once.
-- KEYS[1] the player's hash, KEYS[2..] the player's other keys (sessions, races, history,
--   recovery codes, reports made, each game and step's winning times)
-- Returns the player's hash as it was (field, value, ...), empty if there was none.
local record = redis.call('HGETALL', KEYS[1])
redis.call('DEL', unpack(KEYS))
return record
