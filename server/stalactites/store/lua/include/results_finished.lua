-- finished_race(log, due, room id, recheck at): a race has ended; its room goes in the results
-- log (a stream of 'room' entries, store/results/redis.py) and, until it is recorded, stays in
-- the deadlines (a sorted set), due again at 'recheck at' (ms).
local function finished_race(log_key, due_key, room_id, recheck_at)
  redis.call('XADD', log_key, '*', 'room', room_id)
  redis.call('ZADD', due_key, recheck_at, room_id)
end
