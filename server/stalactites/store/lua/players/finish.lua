-- Mark a race's outcome recorded everywhere.
-- KEYS[1] the race's outcome hash
-- ARGV: none
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'done', 1) end
return 'ok'
