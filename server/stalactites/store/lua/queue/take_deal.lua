-- A deal for a new room: one from the stock at random (then open to be shared until ARGV[1] +
-- ARGV[2]), else one of those still open to be shared, at random.
-- KEYS[1] the stock set (see stock.lua), KEYS[2] the shared sorted set (deal -> open until, ms)
-- ARGV[1] now (ms), ARGV[2] how long a deal dealt from the stock may be shared (ms; 0: never)
-- Returns {deal, "stock" or "shared"}, or false when both are empty.
local now, share = tonumber(ARGV[1]), tonumber(ARGV[2])
local deal = redis.call('SPOP', KEYS[1])
if deal then
  if share > 0 then
    redis.call('ZADD', KEYS[2], now + share, deal)
    redis.call('PEXPIRE', KEYS[2], share)
  end
  return {deal, 'stock'}
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local shared = redis.call('ZRANDMEMBER', KEYS[2])
if shared then return {shared, 'shared'} end
return false
