-- Add an entrant while the tournament is scheduled and has room, once per player id.
-- KEYS: 1 tournament hash, 2 standings zset, 3 standing lines hash
-- ARGV: 1 player id, 2 entrant JSON, 3 max players, 4 score, 5 line JSON, 6 ttl ms
if redis.call('EXISTS', KEYS[1]) == 0 then return 'tournament_not_found' end
if redis.call('HGET', KEYS[1], 'status') ~= 'scheduled' then return 'already_started' end
if redis.call('HEXISTS', KEYS[1], 'entrant:' .. ARGV[1]) == 1 then return 'already_entered' end
local count = tonumber(redis.call('HGET', KEYS[1], 'count'))
if count >= tonumber(ARGV[3]) then return 'tournament_full' end
count = redis.call('HINCRBY', KEYS[1], 'count', 1)
redis.call('HSET', KEYS[1], 'entrant:' .. ARGV[1], ARGV[2], 'seat:' .. ARGV[1], count)
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[5])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[6]) end
return 'entered'
