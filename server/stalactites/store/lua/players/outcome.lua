-- A race's stored outcome (see claim_outcome.lua for its two forms).
-- KEYS[1] the race's outcome
-- Returns {the outcome JSON, done (0 or 1)}, or nil when there is none.
local kind = redis.call('TYPE', KEYS[1]).ok
if kind == 'hash' then
  local stored = redis.call('HMGET', KEYS[1], 'outcome', 'done')
  if not stored[1] then return false end
  return {stored[1], stored[2] and 1 or 0}
end
if kind ~= 'string' then return false end
local stored = redis.call('GET', KEYS[1])
return {string.sub(stored, 2), string.sub(stored, 1, 1) == '1' and 1 or 0}
