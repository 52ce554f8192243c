-- Queue entries (one hash, player id -> {"q": queue, "n": name, "r": rating, "j": joined ms,
-- "a": address hash, "l": {connection id: lease until ms}}), read by the queue's scripts.
local function entry_alive(entry, now)
  for _, until_ms in pairs(entry.l) do
    if until_ms > now then return true end
  end
  return false
end

-- The live entries (a lease not yet run out) of every queue, each with its id, and the hash
-- as read.
local function live_entries(key, now)
  local flat = redis.call('HGETALL', key)
  local list = {}
  for i = 1, #flat, 2 do
    local entry = cjson.decode(flat[i + 1])
    if entry_alive(entry, now) then
      entry.id = flat[i]
      list[#list + 1] = entry
    end
  end
  return list, flat
end

-- Why the player may not be queued in `queue` now, or nil: 'held' (a pairing of this queue
-- holds them, or their matched frame of it is kept), or 'racing' and the room (held by a
-- pairing of another queue: ''); a racing mark past its time is dropped.
-- paired: player id -> match id; pending: match id -> {"q": queue, ...}; result: the player's
-- matched frame of this queue; racing: player id -> room id; racing_until: player id -> ms.
local function not_free(player, queue, now, paired, pending, result, racing, racing_until)
  local match = redis.call('HGET', paired, player)
  if match then
    local held = redis.call('HGET', pending, match)
    if held and cjson.decode(held).q ~= queue then return {'racing', ''} end
    return {'held'}
  end
  if redis.call('EXISTS', result) == 1 then return {'held'} end
  local room = redis.call('HGET', racing, player)
  if room then
    if tonumber(redis.call('ZSCORE', racing_until, player) or 0) > now then
      return {'racing', room}
    end
    redis.call('HDEL', racing, player)
    redis.call('ZREM', racing_until, player)
  end
  return nil
end
