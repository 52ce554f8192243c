-- The action stream (every player's accepted actions) from an index, or a kept room's
-- archive.
-- KEYS: 1 the action stream, 2 the room's archive (store/rooms_archive.py)
-- ARGV: 1 the index to read from
-- Answers {0, actions} or, when the stream is empty and the room archived, {1, the archive}.
local items = redis.call('LRANGE', KEYS[1], ARGV[1], -1)
if #items == 0 then
  local archive = redis.call('GET', KEYS[2])
  if archive then return {1, archive} end
end
return {0, items}
