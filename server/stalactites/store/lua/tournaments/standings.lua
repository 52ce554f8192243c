-- The standings, best first.
-- KEYS: 1 standings zset, 2 standing lines hash: both in one snapshot
-- Answers player id, score, line, ... best first.
local out = {}
local ranked = redis.call('ZREVRANGE', KEYS[1], 0, -1, 'WITHSCORES')
for i = 1, #ranked, 2 do
  out[#out + 1] = ranked[i]
  out[#out + 1] = ranked[i + 1]
  out[#out + 1] = redis.call('HGET', KEYS[2], ranked[i])
end
return out
