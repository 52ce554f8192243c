-- Apply a change to an arena if what it was computed from still holds: every entrant it
-- rewrites as it was read, every pairing it ends still there, the race it scores not scored.
-- KEYS[1] the arena's hash (header, version, rooms, admin), KEYS[2] its entrants (hash: id ->
-- document), KEYS[3] the free entrants (sorted set: id -> since), KEYS[4] the pending
-- pairings (hash: match id -> document), KEYS[5] the races scored (set)
-- ARGV[1] the change (JSON): {"e": [[id, was or false, now]...], "free": [[id, since]...],
-- "busy": [id...], "pending": [[match id, document]...], "settled": [match id...],
-- "scored": room id or false, "rooms": races made}
-- Returns 1 if applied, 0 if not (nothing written).
if redis.call('EXISTS', KEYS[1]) == 0 then
    return 0
end
local change = cjson.decode(ARGV[1])
for _, entrant in ipairs(change.e) do
    local found = redis.call('HGET', KEYS[2], entrant[1])
    if entrant[2] == false then
        if found then return 0 end
    elseif found ~= entrant[2] then
        return 0
    end
end
for _, match in ipairs(change.settled) do
    if redis.call('HEXISTS', KEYS[4], match) == 0 then return 0 end
end
if change.scored and redis.call('SISMEMBER', KEYS[5], change.scored) == 1 then
    return 0
end
for _, entrant in ipairs(change.e) do
    redis.call('HSET', KEYS[2], entrant[1], entrant[3])
end
for _, free in ipairs(change.free) do
    redis.call('ZADD', KEYS[3], free[2], free[1])
end
for _, id in ipairs(change.busy) do
    redis.call('ZREM', KEYS[3], id)
end
for _, pending in ipairs(change.pending) do
    redis.call('HSET', KEYS[4], pending[1], pending[2])
end
for _, match in ipairs(change.settled) do
    redis.call('HDEL', KEYS[4], match)
end
if change.scored then
    redis.call('SADD', KEYS[5], change.scored)
end
redis.call('HINCRBY', KEYS[1], 'rooms', change.rooms)
redis.call('HINCRBY', KEYS[1], 'version', 1)
local ttl = redis.call('PTTL', KEYS[1])
for i = 2, 5 do
    if ttl > 0 and redis.call('EXISTS', KEYS[i]) == 1 then
        redis.call('PEXPIRE', KEYS[i], ttl)
    end
end
return 1
