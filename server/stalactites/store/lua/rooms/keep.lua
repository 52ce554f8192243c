-- Keep a finished room for good (histories point at it), compacted: the room hash and the
-- analysis lose their expiry, and the ttl field becomes a century; the field kept is set, so
-- that an event appended later (a player leaving) refreshes the room hash only
-- (include/room_append.lua).  The action stream and every player's log (a guest's too) give
-- way to the archive (store/rooms/archive.py: one compact value holding every action and its
-- time, and the room hash's long fields), written once: a later keep finds it and leaves it.
-- The hash's long fields and every seat's (ARGV[6] of them, as read: settings, results,
-- player:PID, seat:PID, progress:PID ...) move into the archive, and the names' skeletons
-- (read by joins only) go, so that the hash is small and in Redis's compact encoding; a
-- player:PID field stays, empty, as the seat's mark (the commit, ready and join scripts
-- ask a finished room only whether it exists).  What a finished room needs no
-- more, the event list and the client-id hashes, expires ARGV[2] ms from now (a grace in
-- which a socket behind still reads the results from the events; a hello after it gets the
-- room's snapshot, as after any gap).  The view, the record, the replay and
-- `stalactites verify` read what is kept.  Presence and watchers' leases expire on their own.
-- KEYS: 1 the room hash, 2 events, 3 actions, 4 analysis, 5 the archive, then ARGV[3] logs,
--       then the client-id hashes
-- ARGV: 1 the ttl field (ms), 2 the grace (ms), 3 how many logs, 4 the archive of the
--       action stream and the fields as read, 5 how many actions it holds, 6 how many
--       fields it holds, then each field's name and value as read
-- Answers 1, 0 for no such room, or -1 if the action stream or a field is not the one read
-- (read again).
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local logs, fields = tonumber(ARGV[3]), tonumber(ARGV[6])
if redis.call('EXISTS', KEYS[5]) == 0 then
  if redis.call('LLEN', KEYS[3]) ~= tonumber(ARGV[5]) then return -1 end
  for i = 7, 6 + 2 * fields, 2 do
    if redis.call('HGET', KEYS[1], ARGV[i]) ~= ARGV[i + 1] then return -1 end
  end
  if ARGV[4] ~= '' then redis.call('SET', KEYS[5], ARGV[4]) end
  redis.call('DEL', KEYS[3])
  for i = 6, 5 + logs do redis.call('DEL', KEYS[i]) end
  for i = 7, 6 + 2 * fields, 2 do
    if string.sub(ARGV[i], 1, 7) == 'player:' then
      redis.call('HSET', KEYS[1], ARGV[i], '')
    else
      redis.call('HDEL', KEYS[1], ARGV[i])
    end
  end
  if fields > 0 then  -- written anew: a hash once past the limit keeps its large encoding
    local flat, left = redis.call('HGETALL', KEYS[1]), {}
    for i = 1, #flat, 2 do
      if string.sub(flat[i], 1, 9) ~= 'skeleton:' then
        left[#left + 1] = flat[i]
        left[#left + 1] = flat[i + 1]
      end
    end
    redis.call('DEL', KEYS[1])
    redis.call('HSET', KEYS[1], unpack(left))
  end
end
redis.call('HSET', KEYS[1], 'ttl', ARGV[1], 'kept', 1)
redis.call('PERSIST', KEYS[1])
redis.call('PERSIST', KEYS[4])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
for i = 6 + logs, #KEYS do
  redis.call('PEXPIRE', KEYS[i], ARGV[2])
end
return 1
