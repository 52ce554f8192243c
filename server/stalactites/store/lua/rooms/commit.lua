-- One action on a player's board, stored with its room events (see rooms.base.Commit).
-- KEYS: 1 room hash, 2 event list, 3 the player's log, 4 the player's client ids,
--       5 the room's action stream, 6 the room's listeners (rooms/listen.lua)
-- The bell reads "seq:process", then the action's line ("count|now|player id|action": its
-- place in the action stream and its row there; empty for none), then the events stored.
-- It rings only when a process other than the committing one holds a lease on the room's
-- bell: the committing process takes all of it from this script's answer.
-- ARGV: 1 bell channel, 2 event-log cap, 3 player id, 4 expected log length,
--       5 action ('' for none), 6 client id ('' for none), 7 progress JSON,
--       8 finish ('' for none), 9 elapsed ms, 10 now, 11 the progress event,
--       12 the committing process (its bell reads "seq:process"),
--       13 and 14 the finished event before and after its place (when finishing)
-- Answers {'duplicate', length}, {'conflict', length},
--   {'refused', seated, status, finished, ended} (the facts; refusals.refusal says why),
--   or {'applied', length, first seq, 1 if everyone has finished else 0, finished event,
--       the action's place in the action stream (0 for none)}.
--#include room_append
--#include bell_leases
local pid, cid = ARGV[3], ARGV[6]
bell_tag = ':' .. ARGV[12]
if cid ~= '' then
  local prior = redis.call('HGET', KEYS[4], cid)
  if prior then return {'duplicate', tonumber(prior)} end
end
local seated = redis.call('HEXISTS', KEYS[1], 'player:' .. pid)
if seated == 0 then return {'refused', 0, '', 0, 0} end
local status = redis.call('HGET', KEYS[1], 'status')
local finished = redis.call('HEXISTS', KEYS[1], 'finish:' .. pid)
local ends_at = redis.call('HGET', KEYS[1], 'ends_at')
local ended = 0
if ends_at and tonumber(ARGV[10]) >= tonumber(ends_at) then ended = 1 end
if status ~= 'racing' or finished == 1 or ended == 1 then
  return {'refused', 1, status, finished, ended}
end
local length = redis.call('LLEN', KEYS[3])
if length ~= tonumber(ARGV[4]) then return {'conflict', length} end
local ttl = redis.call('HGET', KEYS[1], 'ttl')
bell_action = ''
local place = 0
if ARGV[5] ~= '' then
  length = redis.call('RPUSH', KEYS[3], ARGV[5])
  redis.call('PEXPIRE', KEYS[3], ttl)
  local row = ARGV[10] .. '|' .. pid .. '|' .. ARGV[5]
  place = redis.call('RPUSH', KEYS[5], row)
  bell_action = place .. '|' .. row
  redis.call('PEXPIRE', KEYS[5], ttl)
end
local now_ms = clock_ms()
local heard = redis.call('ZCOUNT', KEYS[6], now_ms, '+inf')
if lease_live(KEYS[6], ARGV[12], now_ms) then heard = heard - 1 end
bell_quiet = heard <= 0
if cid ~= '' then
  redis.call('HSET', KEYS[4], cid, length)
  redis.call('PEXPIRE', KEYS[4], ttl)
end
redis.call('HSET', KEYS[1], 'progress:' .. pid, ARGV[7])
redis.call('HINCRBY', KEYS[1], 'version', 1)
local events = {ARGV[11]}
local all_done = 0
local finished_event = ''
if ARGV[8] ~= '' then
  redis.call('HSET', KEYS[1], 'finish:' .. pid, ARGV[8], 'elapsed:' .. pid, ARGV[9])
  local standing = 'null'
  if ARGV[8] == 'won' then
    standing = redis.call('HINCRBY', KEYS[1], 'winners', 1)
    redis.call('HSET', KEYS[1], 'place:' .. pid, standing)
  end
  finished_event = ARGV[13] .. standing .. ARGV[14]
  events[2] = finished_event
  local done = redis.call('HINCRBY', KEYS[1], 'done', 1)
  if done == tonumber(redis.call('HGET', KEYS[1], 'players')) then all_done = 1 end
end
local first = append(events)
return {'applied', length, first, all_done, finished_event, place}
