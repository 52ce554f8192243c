-- One step of a tournament, applied only if it is still at the expected status and round;
-- its events are appended and its bell rung in the same step.
-- KEYS: 1 tournament hash, 2 events list, 3 standings zset, 4 standing lines hash
-- ARGV: 1 expected status, 2 expected round, 3 status, 4 round, 5 room id, 6 ends_at,
--       7 break_ends_at ('' clears each of 5-7), 8 record round ('' for none), 9 record JSON,
--       10 '1' to replace the standings, 11 how many standing rows, 12 ttl ms, 13 bell channel,
--       then (player id, score, line JSON) per row, then the events
if redis.call('HGET', KEYS[1], 'status') ~= ARGV[1] then return 0 end
if redis.call('HGET', KEYS[1], 'round') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[3], 'round', ARGV[4])
local names = {[5] = 'room', [6] = 'ends_at', [7] = 'break_ends_at'}
for i = 5, 7 do
  if ARGV[i] == '' then redis.call('HDEL', KEYS[1], names[i])
  else redis.call('HSET', KEYS[1], names[i], ARGV[i]) end
end
if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'round:' .. ARGV[8], ARGV[9]) end
local rows = tonumber(ARGV[11])
if ARGV[10] == '1' then
  redis.call('DEL', KEYS[3], KEYS[4])
  for i = 0, rows - 1 do
    local at = 14 + 3 * i
    redis.call('ZADD', KEYS[3], ARGV[at + 1], ARGV[at])
    redis.call('HSET', KEYS[4], ARGV[at], ARGV[at + 2])
  end
end
local first = 14 + 3 * rows
if first <= #ARGV then
  for i = first, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
  local seq = redis.call('HINCRBY', KEYS[1], 'seq', #ARGV - first + 1)
  redis.call('PUBLISH', ARGV[13], seq)
end
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[12]) end
return 1
