-- A race has ended (on a Redis Cluster, where its room's keys are in another slot than the log).
-- KEYS: 1 the results log (stream), 2 the deadlines (sorted set)
-- ARGV: 1 room id, 2 when it is due again if not recorded by then (ms)
--#include results_finished
finished_race(KEYS[1], KEYS[2], ARGV[1], ARGV[2])
return 1
