"""The Redis store's Lua scripts: each change to a room is one of these, run atomically.

Every script takes the room hash and the room's event list as ``KEYS[1]`` and
``KEYS[2]`` and the bell channel and the event-log cap as ``ARGV[1]`` and
``ARGV[2]``.  All keys of a room share the hash tag ``{room:ID}``, so a room
lives in one Redis Cluster slot and a script may touch all of them.  A script
that appends room events publishes the room's newest seq on the bell channel
in the same atomic step, so a doorbell is never lost for a stored event; a commit
adds the committing process (``seq:process``), which takes its own events from the
commit's answer instead.
"""

from __future__ import annotations

__all__ = ["ANNOUNCE", "COMMIT", "CREATE", "EVENTS", "FINISH", "JOIN", "LEASE", "READY", "START"]

_APPEND = """
local bell_tag = ''
local function append(list)
  local n = #list
  if n == 0 then return 0 end
  redis.call('RPUSH', KEYS[2], unpack(list))
  local seq = redis.call('HINCRBY', KEYS[1], 'seq', n)
  local kept = redis.call('LLEN', KEYS[2])
  local cap = tonumber(ARGV[2])
  if kept > cap then redis.call('LTRIM', KEYS[2], kept - cap, -1) end
  local ttl = redis.call('HGET', KEYS[1], 'ttl')
  redis.call('PEXPIRE', KEYS[2], ttl)
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PUBLISH', ARGV[1], seq .. bell_tag)
  return seq - n + 1
end
"""

JOIN = (
    _APPEND
    + """
-- ARGV: 3 player id, 4 player JSON, 5 progress JSON, 6 player event
if redis.call('EXISTS', KEYS[1]) == 0 then return 'room_not_found' end
if redis.call('HGET', KEYS[1], 'status') ~= 'waiting' then return 'room_full' end
local seats = tonumber(redis.call('HGET', KEYS[1], 'seats'))
local count = tonumber(redis.call('HGET', KEYS[1], 'players'))
if count >= seats then return 'room_full' end
local pid = ARGV[3]
count = redis.call('HINCRBY', KEYS[1], 'players', 1)
redis.call('HSET', KEYS[1], 'player:' .. pid, ARGV[4], 'seat:' .. pid, count,
  'progress:' .. pid, ARGV[5])
append({ARGV[6]})
return 'joined'
"""
)

READY = (
    _APPEND
    + """
-- ARGV: 3 player id, 4 player event, 5 starts_at, 6 ends_at, 7 countdown event
local pid = ARGV[3]
if redis.call('HEXISTS', KEYS[1], 'player:' .. pid) == 0 then return {'room_not_found'} end
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'finished' then return {'already_finished'} end
if status ~= 'waiting' or redis.call('HEXISTS', KEYS[1], 'ready:' .. pid) == 1 then
  return {'ok', 0}
end
redis.call('HSET', KEYS[1], 'ready:' .. pid, 1)
local ready = redis.call('HINCRBY', KEYS[1], 'ready', 1)
local seats = tonumber(redis.call('HGET', KEYS[1], 'seats'))
local count = tonumber(redis.call('HGET', KEYS[1], 'players'))
local events = {ARGV[4]}
local begins = 0
if ready == seats and count == seats then
  redis.call('HSET', KEYS[1], 'status', 'countdown', 'starts_at', ARGV[5], 'ends_at', ARGV[6])
  events[2] = ARGV[7]
  begins = 1
end
append(events)
return {'ok', begins}
"""
)

START = (
    _APPEND
    + """
-- ARGV: 3 now, 4 started event
if redis.call('HGET', KEYS[1], 'status') ~= 'countdown' then return 0 end
if tonumber(ARGV[3]) < tonumber(redis.call('HGET', KEYS[1], 'starts_at')) then return 0 end
redis.call('HSET', KEYS[1], 'status', 'racing')
redis.call('HINCRBY', KEYS[1], 'version', 1)
append({ARGV[4]})
return 1
"""
)

COMMIT = (
    _APPEND
    + """
-- KEYS: 3 the player's log, 4 the player's client ids, 5 the room's action stream
-- ARGV: 3 player id, 4 expected log length, 5 action ('' for none), 6 client id ('' for none),
--       7 progress JSON, 8 finish ('' for none), 9 elapsed ms, 10 now, 11 progress event,
--       12 the committing process (its bell reads "seq:process")
local pid, cid = ARGV[3], ARGV[6]
bell_tag = ':' .. ARGV[12]
if cid ~= '' then
  local prior = redis.call('HGET', KEYS[4], cid)
  if prior then return {'duplicate', tonumber(prior)} end
end
if redis.call('HEXISTS', KEYS[1], 'player:' .. pid) == 0 then
  return {'refused', 'room_not_found'}
end
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'waiting' or status == 'countdown' then return {'refused', 'not_started'} end
if status ~= 'racing' or redis.call('HEXISTS', KEYS[1], 'finish:' .. pid) == 1 then
  return {'refused', 'already_finished'}
end
if tonumber(ARGV[10]) >= tonumber(redis.call('HGET', KEYS[1], 'ends_at')) then
  return {'refused', 'already_finished'}
end
local length = redis.call('LLEN', KEYS[3])
if length ~= tonumber(ARGV[4]) then return {'conflict', length} end
local ttl = redis.call('HGET', KEYS[1], 'ttl')
if ARGV[5] ~= '' then
  length = redis.call('RPUSH', KEYS[3], ARGV[5])
  redis.call('PEXPIRE', KEYS[3], ttl)
  redis.call('RPUSH', KEYS[5], ARGV[10] .. '|' .. pid .. '|' .. ARGV[5])
  redis.call('PEXPIRE', KEYS[5], ttl)
end
if cid ~= '' then
  redis.call('HSET', KEYS[4], cid, length)
  redis.call('PEXPIRE', KEYS[4], ttl)
end
redis.call('HSET', KEYS[1], 'progress:' .. pid, ARGV[7])
redis.call('HINCRBY', KEYS[1], 'version', 1)
local events = {ARGV[11]}
local all_done = 0
local finished = ''
if ARGV[8] ~= '' then
  redis.call('HSET', KEYS[1], 'finish:' .. pid, ARGV[8], 'elapsed:' .. pid, ARGV[9])
  local place = cjson.null
  if ARGV[8] == 'won' then
    place = redis.call('HINCRBY', KEYS[1], 'winners', 1)
    redis.call('HSET', KEYS[1], 'place:' .. pid, place)
  end
  finished = cjson.encode({type = 'finished', player_id = pid, place = place,
    elapsed_ms = tonumber(ARGV[9]), status = ARGV[8]})
  events[2] = finished
  local done = redis.call('HINCRBY', KEYS[1], 'done', 1)
  if done == tonumber(redis.call('HGET', KEYS[1], 'players')) then all_done = 1 end
end
local first = append(events)
return {'applied', length, first, all_done, finished}
"""
)

FINISH = (
    _APPEND
    + """
-- ARGV: 3 expected version, 4 results JSON, 5 number of finishers,
--       then (player id, place, finish, elapsed ms) per finisher, then the events
if redis.call('HGET', KEYS[1], 'status') ~= 'racing' then return 'not_racing' end
if tonumber(redis.call('HGET', KEYS[1], 'version')) ~= tonumber(ARGV[3]) then
  return 'conflict'
end
local count = tonumber(ARGV[5])
for i = 0, count - 1 do
  local at = 6 + 4 * i
  local pid = ARGV[at]
  redis.call('HSET', KEYS[1], 'place:' .. pid, ARGV[at + 1])
  if redis.call('HEXISTS', KEYS[1], 'finish:' .. pid) == 0 then
    redis.call('HSET', KEYS[1], 'finish:' .. pid, ARGV[at + 2], 'elapsed:' .. pid, ARGV[at + 3])
  end
end
redis.call('HSET', KEYS[1], 'status', 'finished', 'results', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'version', 1)
local events = {}
for i = 6 + 4 * count, #ARGV do events[#events + 1] = ARGV[i] end
append(events)
return 'finished'
"""
)

ANNOUNCE = (
    _APPEND
    + """
-- KEYS: 3 the spectators' leases (connection scored by expiry)
-- ARGV: 3 now, 4 the least time between two announcements (ms)
-- Answers -1 when nothing is left to announce, else the time from which to try again.
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HGET', KEYS[1], 'status') == 'finished' then return -1 end
local now = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local count = redis.call('ZCARD', KEYS[3])
if count == tonumber(redis.call('HGET', KEYS[1], 'spectators') or '0') then return -1 end
local due = tonumber(redis.call('HGET', KEYS[1], 'spectators_at') or '0') + tonumber(ARGV[4])
if now < due then return due end
redis.call('HSET', KEYS[1], 'spectators', count, 'spectators_at', now)
append({'{"type":"spectators","count":' .. count .. '}'})
return -1
"""
)

EVENTS = """
-- ARGV: 1 the seq after which events are wanted, 2 how many at most (-1: all)
local seq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
local kept = redis.call('LLEN', KEYS[2])
local base = seq - kept
local since, limit = tonumber(ARGV[1]), tonumber(ARGV[2])
if since < base then return {seq, 1, {}} end
if since >= seq or limit == 0 then return {seq, 0, {}} end
local stop = -1
if limit > 0 then stop = since - base + limit - 1 end
return {seq, 0, redis.call('LRANGE', KEYS[2], since - base, stop)}
"""

CREATE = """
-- A new hash with its expiry, in one step: a room's (or a tournament's).
-- KEYS: 1 the hash; ARGV: 1 ttl ms, then field, value, field, value...
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
"""

LEASE = """
-- A lease (a player's presence or a spectator's) in a sorted set that expires with its room.
-- KEYS: 1 the room hash, 2 the leases; ARGV: 1 until (ms), 2 member, 3 drop leases ending
-- before this ('' to keep them).  Nothing is stored for a room that is gone.
local ttl = redis.call('HGET', KEYS[1], 'ttl')
if not ttl then return 0 end
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[2])
if ARGV[3] ~= '' then redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3]) end
redis.call('PEXPIRE', KEYS[2], ttl)
return 1
"""
