-- Give a player back a rating loss of one race (fair play: the race was against a player
-- marked since), once: μ raised, the history entry rewritten to say so.
-- KEYS[1] the player's hash, KEYS[2] the history (room id -> entry)
-- ARGV[1] room id, ARGV[2] the entry as read, ARGV[3] the entry with the refund in it,
-- ARGV[4] the game, ARGV[5] how much μ goes back
-- Returns 1 when given now, 0 when the entry is not the one read (given already, or gone).
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
local field = 'rating:' .. ARGV[4]
local stored = redis.call('HGET', KEYS[1], field)
if not stored then return 0 end
local a, b, c = string.match(stored, '^([^|]+)|([^|]+)|([^|]+)$')
local mu = tonumber(a) + tonumber(ARGV[5])
redis.call('HSET', KEYS[1], field, string.format('%.17g', mu) .. '|' .. b .. '|' .. c)
redis.call('HINCRBY', KEYS[1], 'board', 1)
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1
