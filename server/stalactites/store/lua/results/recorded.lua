-- A race's results are recorded: its entry is acknowledged and deleted, its deadline goes.
-- KEYS: 1 the results log (stream), 2 the deadlines (sorted set)
-- ARGV: 1 the consumer group, 2 the entry id, 3 the room id
redis.call('ZREM', KEYS[2], ARGV[3])
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('XDEL', KEYS[1], ARGV[2])
return 1
