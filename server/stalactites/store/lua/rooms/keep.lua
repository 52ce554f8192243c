-- Keep a finished room for good (histories point at it), compacted: the room hash and the
-- analysis lose their expiry, and the ttl field becomes a century; the field kept is set, so
-- that an event appended later (a player leaving) refreshes the room hash only
-- (include/room_append.lua).  The action stream and every player's log (a guest's too) give
-- way to the archive (store/rooms_archive.py: one compact value holding every action and its
-- time), written once: a later keep finds it and leaves it.  What a finished room needs no
-- more, the event list and the client-id hashes, expires ARGV[2] ms from now (a grace in
-- which a socket behind still reads the results from the events; a hello after it gets the
-- room's snapshot, as after any gap).  The view, the record, the replay and
-- `stalactites verify` read what is kept.  Presence and watchers' leases expire on their own.
-- KEYS: 1 the room hash, 2 events, 3 actions, 4 analysis, 5 the archive, then ARGV[3] logs,
--       then the client-id hashes
-- ARGV: 1 the ttl field (ms), 2 the grace (ms), 3 how many logs, 4 the archive of the
--       action stream as read, 5 how many actions it holds
-- Answers 1, 0 for no such room, or -1 if the action stream is not the one read (read again).
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local logs = tonumber(ARGV[3])
if redis.call('EXISTS', KEYS[5]) == 0 then
  if redis.call('LLEN', KEYS[3]) ~= tonumber(ARGV[5]) then return -1 end
  if ARGV[5] ~= '0' then redis.call('SET', KEYS[5], ARGV[4]) end
  redis.call('DEL', KEYS[3])
  for i = 6, 5 + logs do redis.call('DEL', KEYS[i]) end
end
redis.call('HSET', KEYS[1], 'ttl', ARGV[1], 'kept', 1)
redis.call('PERSIST', KEYS[1])
redis.call('PERSIST', KEYS[4])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
for i = 6 + logs, #KEYS do
  redis.call('PEXPIRE', KEYS[i], ARGV[2])
end
return 1
