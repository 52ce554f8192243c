-- Make a player an account, kept for good from now on (an anonymous player expired before),
-- with its recovery codes.
-- KEYS[1] the player's hash, KEYS[2] its sessions, KEYS[3] its recovery codes (a code's name
-- -> its hash), KEYS[4] the reports it made
-- ARGV[1] the username, ARGV[2] the password's hash, ARGV[3..] each code's name and hash
-- Returns {'registered', 'already_registered' or 'no_player'; the skeleton of the name whose
-- claim is to be kept for good now, or ''}.
--#include player_kept
if redis.call('EXISTS', KEYS[1]) == 0 then return {'no_player', ''} end
if redis.call('HEXISTS', KEYS[1], 'username') == 1 then return {'already_registered', ''} end
redis.call('HSET', KEYS[1], 'username', ARGV[1], 'password', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'board', 1)
redis.call('DEL', KEYS[3])
if #ARGV > 2 then redis.call('HSET', KEYS[3], unpack(ARGV, 3)) end
local claim = kept_for_good(KEYS[1], KEYS[2], KEYS[4])
return {'registered', claim}
