-- Take a username key for a player, or take it over from an owner that is gone.
-- KEYS[1] the username key (its value: the owner's player id)
-- ARGV[1] the player id, ARGV[2] the gone owner to take it from ('' for none)
-- Returns the owner afterwards.
local owner = redis.call('GET', KEYS[1])
if owner == false or (ARGV[2] ~= '' and owner == ARGV[2]) then
  redis.call('SET', KEYS[1], ARGV[1])
  return ARGV[1]
end
return owner
