-- Renew one socket's lease on a player's entry.
-- KEYS[1] the entries hash (see include/queue_alive.lua)
-- ARGV[1] player id, ARGV[2] connection id, ARGV[3] the lease's end (unix ms), ARGV[4] the queue
-- Returns 1, or 0 when the player is no longer queued here (paired, or gone).
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local entry = cjson.decode(raw)
if entry.q ~= ARGV[4] then return 0 end
entry.l[ARGV[2]] = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(entry))
return 1
