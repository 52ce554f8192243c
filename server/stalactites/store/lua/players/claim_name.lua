-- Claim a name (by its skeleton) for a player: for good, or for an expiring player until
-- it expires (see touch.lua, claim_ttl.lua).
-- KEYS[1] the name's key (its value: the player id that claimed it; '1' for claims made
-- before claims were kept with their owner)
-- ARGV[1] the player id, ARGV[2] the claim's time to live (ms; '' for good)
-- Returns 2 if the player claimed it now, 1 if it was theirs already, 0 if it is someone
-- else's.
local owner = redis.call('GET', KEYS[1])
if owner == false then
  if ARGV[2] == nil or ARGV[2] == '' then
    redis.call('SET', KEYS[1], ARGV[1])
  else
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  end
  return 2
end
return owner == ARGV[1] and 1 or 0
