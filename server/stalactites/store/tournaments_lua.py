"""The Redis tournament store's Lua scripts, each one atomic step.

A tournament's keys share the hash tag ``{tournament:ID}`` (one Redis Cluster
slot), so a script may touch all of them; the due index's two keys share the
tag ``{tournaments}``, and its scripts touch only those.  A script that
appends tournament events publishes the newest seq on the bell channel in the
same step, so a doorbell is never lost for a stored event.
"""

from __future__ import annotations

__all__ = [
    "CLAIM",
    "CLAIM_DUE",
    "ENTER",
    "EVENTS",
    "POKE",
    "RELEASE",
    "REQUEST_START",
    "STANDINGS",
    "TRANSITION",
]

ENTER = """
-- KEYS: 1 tournament hash, 2 standings zset, 3 standing lines hash
-- ARGV: 1 player id, 2 entrant JSON, 3 max players, 4 score, 5 line JSON, 6 ttl ms
if redis.call('EXISTS', KEYS[1]) == 0 then return 'tournament_not_found' end
if redis.call('HGET', KEYS[1], 'status') ~= 'scheduled' then return 'already_started' end
local count = tonumber(redis.call('HGET', KEYS[1], 'count'))
if count >= tonumber(ARGV[3]) then return 'tournament_full' end
count = redis.call('HINCRBY', KEYS[1], 'count', 1)
redis.call('HSET', KEYS[1], 'entrant:' .. ARGV[1], ARGV[2], 'seat:' .. ARGV[1], count)
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[5])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[6]) end
return 'entered'
"""

REQUEST_START = """
-- KEYS: 1 tournament hash; ARGV: 1 now, 2 ttl ms
if redis.call('EXISTS', KEYS[1]) == 0 then return {'tournament_not_found', 0} end
if redis.call('HGET', KEYS[1], 'status') ~= 'scheduled' then return {'already_started', 0} end
local starts = tonumber(redis.call('HGET', KEYS[1], 'starts_at') or '-1')
if starts < 0 or starts > tonumber(ARGV[1]) then
  starts = tonumber(ARGV[1])
  redis.call('HSET', KEYS[1], 'starts_at', ARGV[1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {'starting', starts}
"""

TRANSITION = """
-- KEYS: 1 tournament hash, 2 events list, 3 standings zset, 4 standing lines hash
-- ARGV: 1 expected status, 2 expected round, 3 status, 4 round, 5 room id, 6 ends_at,
--       7 break_ends_at ('' clears each of 5-7), 8 record round ('' for none), 9 record JSON,
--       10 '1' to replace the standings, 11 how many standing rows, 12 ttl ms, 13 bell channel,
--       then (player id, score, line JSON) per row, then the events
if redis.call('HGET', KEYS[1], 'status') ~= ARGV[1] then return 0 end
if redis.call('HGET', KEYS[1], 'round') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[3], 'round', ARGV[4])
local names = {[5] = 'room', [6] = 'ends_at', [7] = 'break_ends_at'}
for i = 5, 7 do
  if ARGV[i] == '' then redis.call('HDEL', KEYS[1], names[i])
  else redis.call('HSET', KEYS[1], names[i], ARGV[i]) end
end
if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'round:' .. ARGV[8], ARGV[9]) end
local rows = tonumber(ARGV[11])
if ARGV[10] == '1' then
  redis.call('DEL', KEYS[3], KEYS[4])
  for i = 0, rows - 1 do
    local at = 14 + 3 * i
    redis.call('ZADD', KEYS[3], ARGV[at + 1], ARGV[at])
    redis.call('HSET', KEYS[4], ARGV[at], ARGV[at + 2])
  end
end
local first = 14 + 3 * rows
if first <= #ARGV then
  for i = first, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
  local seq = redis.call('HINCRBY', KEYS[1], 'seq', #ARGV - first + 1)
  redis.call('PUBLISH', ARGV[13], seq)
end
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[12]) end
return 1
"""

EVENTS = """
-- KEYS: 1 tournament hash, 2 events list; ARGV: 1 the seq after which events are wanted
local seq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
local since = tonumber(ARGV[1])
if since >= seq then return {seq, {}} end
return {seq, redis.call('LRANGE', KEYS[2], since, -1)}
"""

POKE = """
-- KEYS: 1 due zset, 2 generations hash; ARGV: 1 tournament id, 2 at ms
local current = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not current or tonumber(ARGV[2]) < tonumber(current) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
end
redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
return 1
"""

CLAIM_DUE = """
-- KEYS: 1 due zset, 2 generations hash; ARGV: 1 now, 2 lease ms, 3 limit
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
local until_ms = tonumber(ARGV[1]) + tonumber(ARGV[2])
local out = {}
for _, id in ipairs(ids) do
  redis.call('ZADD', KEYS[1], until_ms, id)
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', KEYS[2], id) or '0'
end
return out
"""

CLAIM = """
-- KEYS: 1 due zset, 2 generations hash; ARGV: 1 tournament id, 2 now, 3 lease ms
local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not at or tonumber(at) > tonumber(ARGV[2]) then return false end
redis.call('ZADD', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[1])
return redis.call('HGET', KEYS[2], ARGV[1]) or '0'
"""

RELEASE = """
-- KEYS: 1 due zset, 2 generations hash
-- ARGV: 1 tournament id, 2 generation claimed, 3 next ms ('' for never), 4 now
local generation = redis.call('HGET', KEYS[2], ARGV[1]) or '0'
if generation ~= ARGV[2] then
  local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
  if not at or tonumber(at) > tonumber(ARGV[4]) then
    redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
  end
elseif ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
"""

STANDINGS = """
-- KEYS: 1 standings zset, 2 standing lines hash: both in one snapshot
-- Answers player id, score, line, ... best first.
local out = {}
local ranked = redis.call('ZREVRANGE', KEYS[1], 0, -1, 'WITHSCORES')
for i = 1, #ranked, 2 do
  out[#out + 1] = ranked[i]
  out[#out + 1] = ranked[i + 1]
  out[#out + 1] = redis.call('HGET', KEYS[2], ranked[i])
end
return out
"""
