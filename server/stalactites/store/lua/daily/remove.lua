-- Take a player's attempt off the day's two boards (fair play: a marked player).
-- KEYS: 1-3 the registered board (sorted set, entries, placed), 4-6 the guests' board
-- ARGV: 1 player id
for first = 1, 4, 3 do
  local key = redis.call('HGET', KEYS[first + 2], ARGV[1])
  if key then
    redis.call('ZREM', KEYS[first], key)
    redis.call('HDEL', KEYS[first + 1], key)
    redis.call('HDEL', KEYS[first + 2], ARGV[1])
  end
end
return 1
