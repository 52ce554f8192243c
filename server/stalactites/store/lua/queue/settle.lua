-- End a pending pairing: keep each player's matched frame and ring the queue's bell.
-- KEYS[1] the pending pairings hash (see pair.lua), KEYS[2..] each player's result key
-- ARGV[1] match id, ARGV[2] how long a result is kept (ms), ARGV[3] the queue's bell channel,
-- ARGV[4..] each player's id then frame, in the order of KEYS[2..]
redis.call('HDEL', KEYS[1], ARGV[1])
for k = 2, #KEYS do
  local player_id, frame = ARGV[2 + 2 * (k - 1)], ARGV[3 + 2 * (k - 1)]
  redis.call('SET', KEYS[k], frame, 'PX', ARGV[2])
  redis.call('PUBLISH', ARGV[3], player_id)
end
return 1
