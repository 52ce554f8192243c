-- Keep a finished room for good (histories point at it): its keys lose their expiry, and its
-- ttl field becomes a century, so that an event appended later (a player leaving) refreshes
-- nothing away.  Presence and watchers' leases are left to expire with their own.
-- KEYS: 1 the room hash, then the room's other keys to keep (events, actions, each log, ids)
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'ttl', ARGV[1])
for i = 1, #KEYS do
  redis.call('PERSIST', KEYS[i])
end
return 1
