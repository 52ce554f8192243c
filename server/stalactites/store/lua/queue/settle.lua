-- End a pending pairing: keep each player's matched frame and ring the queue's bell (no
-- frames: the pairing is given up, its players are free to queue again).
-- KEYS[1] the pending pairings hash, KEYS[2] the paired players hash (see pair.lua),
-- KEYS[3..] each player's result key
-- ARGV[1] match id, ARGV[2] how long a result is kept (ms), ARGV[3] the queue's bell channel,
-- ARGV[4] how many players, then each player's id, then each player's frame (in the order of
-- KEYS[3..], as many as there are result keys)
-- Returns 0 (and tells no one) when the pairing was forgotten meanwhile (not settled within
-- pair.lua's ARGV[6]: its players may be queued again), else 1.
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
local n = tonumber(ARGV[4])
for k = 1, n do redis.call('HDEL', KEYS[2], ARGV[4 + k]) end
for k = 3, #KEYS do
  redis.call('SET', KEYS[k], ARGV[4 + n + k - 2], 'PX', ARGV[2])
  redis.call('PUBLISH', ARGV[3], ARGV[4 + k - 2])
end
return 1
