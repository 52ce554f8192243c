-- Queue a player, or add a socket's lease to the player's entry (one entry per player, in one
-- queue at a time).
-- KEYS[1] the entries hash (see include/queue_alive.lua), KEYS[2] the paired players hash,
-- KEYS[3] the pending pairings hash (see pair.lua), KEYS[4] the player's kept matched frame of
-- this queue, KEYS[5] the racing hash (player id -> room id), KEYS[6] the racing ends sorted set
-- (player id -> unix ms)
-- ARGV[1] player id, ARGV[2] name, ARGV[3] rating, ARGV[4] joined (if new), ARGV[5] connection
-- id, ARGV[6] the lease's end (unix ms), ARGV[7] the queue, ARGV[8] the address hash, ARGV[9]
-- now (unix ms)
-- Returns {'ok', name, rating, joined, address}: the entry as kept; {'held'} and nothing queued
-- while a pending pairing of this queue holds the player or their matched frame is kept (a
-- late tab of a matched player); {'racing', room id} while in a quick race not over (or held
-- by another queue's pairing: ''); {'queued', queue} while they have a live entry in another
-- queue.
--#include queue_alive
local player, queue, now = ARGV[1], ARGV[7], tonumber(ARGV[9])
local refused = not_free(player, queue, now, KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
if refused then return refused end
local raw = redis.call('HGET', KEYS[1], player)
local entry
if raw then
  entry = cjson.decode(raw)
  if entry.q ~= queue then
    if entry_alive(entry, now) then return {'queued', entry.q} end
    entry = nil
  end
end
if not entry then
  entry = {q = queue, n = ARGV[2], r = tonumber(ARGV[3]), j = tonumber(ARGV[4]), a = ARGV[8],
           l = {}}
end
entry.l[ARGV[5]] = tonumber(ARGV[6])
redis.call('HSET', KEYS[1], player, cjson.encode(entry))
return {'ok', entry.n, tostring(entry.r), tostring(entry.j), entry.a or ''}
