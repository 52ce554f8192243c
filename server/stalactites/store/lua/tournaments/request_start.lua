-- Make a scheduled tournament start now (a scheduler begins its first round).
-- KEYS: 1 tournament hash; ARGV: 1 now, 2 ttl ms
if redis.call('EXISTS', KEYS[1]) == 0 then return {'tournament_not_found', 0} end
if redis.call('HGET', KEYS[1], 'status') ~= 'scheduled' then return {'already_started', 0} end
local starts = tonumber(redis.call('HGET', KEYS[1], 'starts_at') or '-1')
if starts < 0 or starts > tonumber(ARGV[1]) then
  starts = tonumber(ARGV[1])
  redis.call('HSET', KEYS[1], 'starts_at', ARGV[1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {'starting', starts}
