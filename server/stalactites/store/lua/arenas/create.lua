-- Store a new arena, unless its id is taken.
-- KEYS[1] the arena's hash (fields header, version, rooms, admin)
-- ARGV[1] the header (JSON), ARGV[2] the admin token's hash, ARGV[3] how long it is kept (ms)
-- Returns 1 if stored, 0 if the id was taken.
if redis.call('EXISTS', KEYS[1]) == 1 then
    return 0
end
redis.call('HSET', KEYS[1], 'header', ARGV[1], 'version', 1, 'rooms', 0, 'admin', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
