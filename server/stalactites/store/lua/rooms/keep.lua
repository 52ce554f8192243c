-- Keep a finished room for good (histories point at it), compacted: its keys lose their
-- expiry, and its ttl field becomes a century, so that an event appended later (a player
-- leaving) refreshes nothing away.  What a finished room needs no more goes: the event list
-- keeps only its newest ARGV[2] events (the results among them; an older hello gets the
-- room's snapshot, as after any gap) and the client-id hashes (moves are over) are deleted.
-- The room hash, the timed actions, the analysis and every log stay: the view, the record,
-- the replay and `stalactites verify` read them.  Presence and watchers' leases expire.
-- KEYS: 1 the room hash, 2 events, 3 actions, 4 analysis, then ARGV[3] logs, then the ids
-- ARGV: 1 the ttl field (ms), 2 the events to keep, 3 how many logs
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'ttl', ARGV[1])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[2]), -1)
local logs = tonumber(ARGV[3])
for i = 1, 4 + logs do
  redis.call('PERSIST', KEYS[i])
end
for i = 5 + logs, #KEYS do
  redis.call('DEL', KEYS[i])
end
return 1
