-- Renew one socket's lease on a player's entry.
-- KEYS[1] the queue's entries hash (see enqueue.lua)
-- ARGV[1] player id, ARGV[2] connection id, ARGV[3] the lease's end (unix ms)
-- Returns 1, or 0 when the player is no longer queued (paired, or gone).
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local entry = cjson.decode(raw)
entry.l[ARGV[2]] = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(entry))
return 1
