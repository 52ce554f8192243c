-- Take a player out of the queue for a ghost race: their entry goes, and a pairing of them
-- alone is kept pending (settle.lua ends it with the ghost race's room, or gives it up).
-- KEYS[1] the entries hash (see include/queue_alive.lua), KEYS[2] the pending pairings hash,
-- KEYS[3] the match id counter, KEYS[4] the paired players hash (see pair.lua), KEYS[5] the
-- player's kept matched frame of this queue, KEYS[6] the racing hash, KEYS[7] the racing ends
-- ARGV[1] player id, ARGV[2] the queue, ARGV[3] now (unix ms), ARGV[4] '1': only if queued here
-- Returns {'ok', match id}; {'held'} when held or matched in this queue already, or (ARGV[4])
-- not queued here; {'racing', room id} or {'queued', queue} as enqueue.lua.
--#include queue_alive
local player, queue, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
local refused = not_free(player, queue, now, KEYS[4], KEYS[2], KEYS[5], KEYS[6], KEYS[7])
if refused then return refused end
local raw = redis.call('HGET', KEYS[1], player)
local here = false
if raw then
  local entry = cjson.decode(raw)
  local alive = entry_alive(entry, now)
  if entry.q ~= queue and alive then return {'queued', entry.q} end
  here = entry.q == queue and alive
end
if ARGV[4] == '1' and not here then return {'held'} end
redis.call('HDEL', KEYS[1], player)
local id = 'm' .. redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[2], id, cjson.encode({t = now, q = queue, p = {{player}}}))
redis.call('HSET', KEYS[4], player, id)
return {'ok', id}
