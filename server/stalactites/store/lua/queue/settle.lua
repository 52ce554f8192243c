-- End a pending pairing: keep each player's matched frame, mark them racing in the room and
-- each pair of them matched, and ring the queue's bell (no frames: the pairing is given up,
-- its players are free to queue again).
-- KEYS[1] the pending pairings hash, KEYS[2] the paired players hash (see pair.lua), KEYS[3]
-- the racing hash, KEYS[4] the racing ends, KEYS[5] the recent pairs (see pair.lua), KEYS[6..]
-- each player's result key
-- ARGV[1] match id, ARGV[2] how long a result is kept (ms), ARGV[3] the queue's bell channel,
-- ARGV[4] how many players (n), ARGV[5] the room id ('': no room to mark), ARGV[6] when its
-- race is over at the latest (unix ms), ARGV[7] when it was matched (unix ms), then each
-- player's id, then each player's frame (in the order of KEYS[6..], as many as there are
-- result keys)
-- Returns 0 (and tells no one) when the pairing was forgotten meanwhile (not settled within
-- pair.lua's ARGV[6]: its players may be queued again), else 1.
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
local n, room = tonumber(ARGV[4]), ARGV[5]
local players = {}
for k = 1, n do
  players[k] = ARGV[7 + k]
  if redis.call('HGET', KEYS[2], players[k]) == ARGV[1] then
    redis.call('HDEL', KEYS[2], players[k])
  end
end
if room ~= '' and #KEYS > 5 then
  for k = 1, n do
    redis.call('HSET', KEYS[3], players[k], room)
    redis.call('ZADD', KEYS[4], ARGV[6], players[k])
    for j = k + 1, n do
      local a, b = players[k], players[j]
      if b < a then a, b = b, a end
      redis.call('ZADD', KEYS[5], ARGV[7], a .. '|' .. b)
    end
  end
end
for k = 6, #KEYS do
  redis.call('SET', KEYS[k], ARGV[7 + n + k - 5], 'PX', ARGV[2])
  redis.call('PUBLISH', ARGV[3], ARGV[7 + k - 5])
end
return 1
