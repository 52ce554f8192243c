-- Add certified deals to a queue's stock, never past its depth.
-- KEYS[1] the stock set (each member one deal, as the matchmaker's deal pool writes it)
-- ARGV[1] the depth, ARGV[2..] the deals
-- Returns how many deals are in stock now.
local depth = tonumber(ARGV[1])
for k = 2, #ARGV do
  if redis.call('SCARD', KEYS[1]) >= depth then break end
  redis.call('SADD', KEYS[1], ARGV[k])
end
return redis.call('SCARD', KEYS[1])
