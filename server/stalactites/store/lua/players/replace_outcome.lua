-- Replace a race's stored outcome, if it is still the one read (compare and set).
-- KEYS[1] the race's outcome hash
-- ARGV[1] the outcome read, ARGV[2] the new outcome
-- Returns 1 if replaced, 0 if the outcome was not the one read.
if redis.call('HGET', KEYS[1], 'outcome') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'outcome', ARGV[2])
return 1
