-- Claim the tournaments due now: each is due again only once its lease has run out.
-- KEYS: 1 due zset, 2 generations hash; ARGV: 1 now, 2 lease ms, 3 limit
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
local until_ms = tonumber(ARGV[1]) + tonumber(ARGV[2])
local out = {}
for _, id in ipairs(ids) do
  redis.call('ZADD', KEYS[1], until_ms, id)
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', KEYS[2], id) or '0'
end
return out
