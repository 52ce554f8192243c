-- Make a player an account.
-- KEYS[1] the player's hash
-- ARGV[1] the username, ARGV[2] the password's hash
-- Returns 'registered', 'already_registered' or 'no_player'.
if redis.call('EXISTS', KEYS[1]) == 0 then return 'no_player' end
if redis.call('HEXISTS', KEYS[1], 'username') == 1 then return 'already_registered' end
redis.call('HSET', KEYS[1], 'username', ARGV[1], 'password', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'board', 1)
return 'registered'
