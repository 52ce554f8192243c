-- Store a document (a player's fair-play record, an arena) if its version is still the one it
-- was computed from.
-- KEYS[1] the record's hash (fields record, version)
-- ARGV[1] the record (JSON), ARGV[2] the version it was computed from
-- Returns 1 if stored, 0 if another change came first.
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[2]) then
    return 0
end
redis.call('HSET', KEYS[1], 'record', ARGV[1], 'version', version + 1)
return 1
