-- Take a player's entry out of a queue whatever its leases.
-- KEYS[1] the entries hash (see include/queue_alive.lua)
-- ARGV[1] player id, ARGV[2] the queue
-- Returns 1 if the player was queued there, else 0.
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw or cjson.decode(raw).q ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
