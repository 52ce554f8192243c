-- Drop one socket's lease; the entry goes with its last lease.
-- KEYS[1] the entries hash (see include/queue_alive.lua)
-- ARGV[1] player id, ARGV[2] connection id, ARGV[3] the queue
-- Returns 1 if the player was still queued here, else 0.
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local entry = cjson.decode(raw)
if entry.q ~= ARGV[3] then return 0 end
entry.l[ARGV[2]] = nil
if next(entry.l) == nil then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(entry))
end
return 1
