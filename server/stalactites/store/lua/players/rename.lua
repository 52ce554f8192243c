-- Rename a player at most once per ARGV[3] ms.
-- KEYS[1] the player's hash
-- ARGV[1] the new name, ARGV[2] now (unix ms), ARGV[3] the least time between renames (ms),
-- ARGV[4] the skeleton the new name is claimed under (an expiring player's claim from now)
-- Returns 'renamed', 'no_player', or when a rename is allowed next (unix ms, an integer).
if redis.call('EXISTS', KEYS[1]) == 0 then return 'no_player' end
local last = redis.call('HGET', KEYS[1], 'renamed')
local now, every = tonumber(ARGV[2]), tonumber(ARGV[3])
if last and now < tonumber(last) + every then return tonumber(last) + every end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'renamed', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'board', 1)  -- its board lines show the name
if ARGV[4] and ARGV[4] ~= '' and redis.call('HEXISTS', KEYS[1], 'expires') == 1 then
  redis.call('HSET', KEYS[1], 'claim', ARGV[4])
end
return 'renamed'
