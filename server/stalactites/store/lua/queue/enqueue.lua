-- Queue a player, or add a socket's lease to the player's entry (one entry per player).
-- KEYS[1] the queue's entries hash (player id -> {"n": name, "r": rating, "j": joined ms,
--   "l": {connection id: lease until ms}})
-- ARGV[1] player id, ARGV[2] name, ARGV[3] rating, ARGV[4] now (joined, if new),
-- ARGV[5] connection id, ARGV[6] the lease's end (unix ms)
-- KEYS[2] the paired players hash (see pair.lua), KEYS[3] the player's kept matched frame
-- Returns the entry as kept: {name, rating, joined}; or {} and nothing queued while a pending
-- pairing holds the player or their matched frame is kept (a late tab of a matched player).
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 or redis.call('EXISTS', KEYS[3]) == 1 then
  return {}
end
local raw = redis.call('HGET', KEYS[1], ARGV[1])
local entry
if raw then
  entry = cjson.decode(raw)
else
  entry = {n = ARGV[2], r = tonumber(ARGV[3]), j = tonumber(ARGV[4]), l = {}}
end
entry.l[ARGV[5]] = tonumber(ARGV[6])
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(entry))
return {entry.n, tostring(entry.r), tostring(entry.j)}
