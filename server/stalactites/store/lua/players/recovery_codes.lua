-- Replace an account's recovery codes with a new set.
-- KEYS[1] the player's hash, KEYS[2] its recovery codes (a code's name -> its hash)
-- ARGV each code's name and hash
-- Returns 1, or 0 for no such account (nothing changed).
if redis.call('HEXISTS', KEYS[1], 'username') == 0 then return 0 end
redis.call('DEL', KEYS[2])
if #ARGV > 0 then redis.call('HSET', KEYS[2], unpack(ARGV)) end
return 1
