-- An expiring player's claim of a name: kept for good, or its expiry moved on.
-- KEYS[1] the name's key (its value: the player id that claimed it)
-- ARGV[1] the player id, ARGV[2] the claim's time to live from now (ms; only a claim that
-- expires already is moved on), or '' to keep it for good
-- Returns 1 if the claim is the player's, else 0 (nothing changed).
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then
  redis.call('PERSIST', KEYS[1])
elseif redis.call('PTTL', KEYS[1]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1
