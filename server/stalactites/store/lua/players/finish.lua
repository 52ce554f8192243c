-- Mark a race's outcome recorded everywhere (see claim_outcome.lua for its two forms).
-- KEYS[1] the race's outcome
-- ARGV: none
local kind = redis.call('TYPE', KEYS[1]).ok
if kind == 'string' then
  redis.call('SETRANGE', KEYS[1], 0, '1')
elseif kind == 'hash' then
  redis.call('HSET', KEYS[1], 'done', 1)
end
return 'ok'
