-- Replace a race's stored outcome, if it is still the one read (compare and set; see
-- claim_outcome.lua for its two forms).
-- KEYS[1] the race's outcome
-- ARGV[1] the outcome read, ARGV[2] the new outcome
-- Returns 1 if replaced, 0 if the outcome was not the one read.
if redis.call('TYPE', KEYS[1]).ok == 'hash' then
  if redis.call('HGET', KEYS[1], 'outcome') ~= ARGV[1] then return 0 end
  redis.call('HSET', KEYS[1], 'outcome', ARGV[2])
  return 1
end
local stored = redis.call('GET', KEYS[1])
if not stored or string.sub(stored, 2) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], string.sub(stored, 1, 1) .. ARGV[2])
return 1
