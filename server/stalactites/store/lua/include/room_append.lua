-- append(list): append room events, trim the log, refresh the room's expiry and ring its bell.
-- Included by the room scripts that append events; each of them takes
--   KEYS[1] the room hash, KEYS[2] the room's event list,
--   ARGV[1] the bell channel, ARGV[2] the event-log cap.
-- The bell carries the newest seq, and ":process" after it when bell_tag is set (a commit
-- sets it to name the committing process, which takes its events from the commit's answer).
-- A commit sets bell_action too (its action's line, '' for none): then the bell carries,
-- each on a line after the seq's, that and every event appended (rooms.base.Carried), so that
-- no process hearing it reads them from the store; and bell_quiet, true when no other process
-- listens to the room (the bell is not rung).
-- Answers the seq of the first event appended (0 for none).
local bell_tag = ''
local bell_action = nil
local bell_quiet = false
local function append(list)
  local n = #list
  if n == 0 then return 0 end
  redis.call('RPUSH', KEYS[2], unpack(list))
  local seq = redis.call('HINCRBY', KEYS[1], 'seq', n)
  local kept = redis.call('LLEN', KEYS[2])
  local cap = tonumber(ARGV[2])
  if kept > cap then redis.call('LTRIM', KEYS[2], kept - cap, -1) end
  local ttl = redis.call('HGET', KEYS[1], 'ttl')
  if redis.call('HEXISTS', KEYS[1], 'kept') == 0 then  -- a kept room's events expire
    redis.call('PEXPIRE', KEYS[2], ttl)
  end
  redis.call('PEXPIRE', KEYS[1], ttl)
  local bell = seq .. bell_tag
  if bell_action then bell = bell .. '\n' .. bell_action .. '\n' .. table.concat(list, '\n') end
  if not bell_quiet then redis.call('PUBLISH', ARGV[1], bell) end
  return seq - n + 1
end
