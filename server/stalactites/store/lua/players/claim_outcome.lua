-- Store a race's outcome unless one is stored: the first writer wins.
-- KEYS[1] the race's outcome: a string, '0' (or '1' once recorded everywhere) then the JSON
--         (a hash outcome: JSON, done: 1 in a store written before: still read and kept)
-- ARGV[1] the outcome JSON
-- Returns {the stored outcome JSON, done (0 or 1)}.
if redis.call('TYPE', KEYS[1]).ok == 'hash' then
  local stored = redis.call('HMGET', KEYS[1], 'outcome', 'done')
  return {stored[1], stored[2] and 1 or 0}
end
redis.call('SET', KEYS[1], '0' .. ARGV[1], 'NX')
local stored = redis.call('GET', KEYS[1])
return {string.sub(stored, 2), string.sub(stored, 1, 1) == '1' and 1 or 0}
