-- Claim a name (by its skeleton) for a player.
-- KEYS[1] the name's key (its value: the player id that claimed it; '1' for claims made
-- before claims were kept with their owner)
-- ARGV[1] the player id
-- Returns 2 if the player claimed it now, 1 if it was theirs already, 0 if it is someone
-- else's.
local owner = redis.call('GET', KEYS[1])
if owner == false then
  redis.call('SET', KEYS[1], ARGV[1])
  return 2
end
return owner == ARGV[1] and 1 or 0
