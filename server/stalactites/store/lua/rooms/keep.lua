-- Keep a finished room for good (histories point at it), compacted: the room hash, the timed
-- actions, the analysis and every log given lose their expiry, and the ttl field becomes a
-- century; the field kept is set, so that an event appended later (a player leaving)
-- refreshes the room hash only (include/room_append.lua).  What a finished room needs no
-- more, the event list and the client-id hashes, expires ARGV[2] ms from now (a grace in
-- which a socket behind still reads the results from the events; a hello after it gets the
-- room's snapshot, as after any gap).  The view, the record, the replay and
-- `stalactites verify` read what is kept.  Presence and watchers' leases expire on their own.
-- KEYS: 1 the room hash, 2 events, 3 actions, 4 analysis, then ARGV[3] logs, then the ids
-- ARGV: 1 the ttl field (ms), 2 the grace (ms), 3 how many logs
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'ttl', ARGV[1], 'kept', 1)
local logs = tonumber(ARGV[3])
for i = 1, 4 + logs do
  if i ~= 2 then redis.call('PERSIST', KEYS[i]) end
end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
for i = 5 + logs, #KEYS do
  redis.call('PEXPIRE', KEYS[i], ARGV[2])
end
return 1
