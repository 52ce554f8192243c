-- Replace a challenge if its status is the one the change was computed from.
-- KEYS[1] the challenge (JSON string)
-- ARGV[1] the status it must have, ARGV[2] the new document
-- Returns 1 if replaced, 0 if gone or another change came first.
local found = redis.call('GET', KEYS[1])
if not found or cjson.decode(found)['status'] ~= ARGV[1] then
    return 0
end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1
