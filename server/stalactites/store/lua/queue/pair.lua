-- The pairing step: drop entries whose leases all ran out, then pair the longest waiter with
-- the ARGV[5] - 1 others nearest in rating that its window allows, and so on (the same rule as
-- stalactites.store.queue_base.pairings); paired entries leave the queue, each pairing is kept
-- pending until settled (pendings older than ARGV[6] ms are forgotten).
-- KEYS[1] the queue's entries hash (see enqueue.lua), KEYS[2] the pending pairings hash
-- (match id -> {"t": made at, "p": players}), KEYS[3] the match id counter, KEYS[4] the
-- paired players hash (player id -> their pending match id)
-- ARGV[1] now (unix ms), ARGV[2] the window at once, ARGV[3] its widening per second,
-- ARGV[4] the wait (ms) after which anyone is near enough, ARGV[5] players per room,
-- ARGV[6] how long a pending pairing is kept (ms)
-- Returns one JSON text per pairing: [match id, [[player id, name, rating, joined], ...]].
--#include queue_alive
local now, base, per_s = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local anyone, size, keep = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local list, flat = live_entries(KEYS[1], now)
if #list * 2 < #flat then
  local alive = {}
  for _, entry in ipairs(list) do alive[entry.id] = true end
  for i = 1, #flat, 2 do
    if not alive[flat[i]] then redis.call('HDEL', KEYS[1], flat[i]) end
  end
end
local function older(a, b)
  if a.j ~= b.j then return a.j < b.j end
  return a.id < b.id
end
table.sort(list, older)
local placed, out = {}, {}
for _, first in ipairs(list) do
  if not placed[first.id] then
    local waited = now - first.j
    local window = base + per_s * math.max(waited, 0) / 1000
    if waited >= anyone then window = math.huge end
    local near = {}
    for _, other in ipairs(list) do
      local gap = math.abs(other.r - first.r)
      if not placed[other.id] and other.id ~= first.id and gap <= window then
        near[#near + 1] = {gap, other}
      end
    end
    if #near >= size - 1 then
      table.sort(near, function(a, b)
        if a[1] ~= b[1] then return a[1] < b[1] end
        return older(a[2], b[2])
      end)
      local room = {first}
      for k = 1, size - 1 do room[#room + 1] = near[k][2] end
      local id = 'm' .. redis.call('INCR', KEYS[3])
      local players = {}
      for _, p in ipairs(room) do
        placed[p.id] = true
        redis.call('HDEL', KEYS[1], p.id)
        redis.call('HSET', KEYS[4], p.id, id)
        players[#players + 1] = {p.id, p.n, p.r, p.j}
      end
      redis.call('HSET', KEYS[2], id, cjson.encode({t = now, p = players}))
      out[#out + 1] = cjson.encode({id, players})
    end
  end
end
local pending = redis.call('HGETALL', KEYS[2])
for i = 1, #pending, 2 do
  local old = cjson.decode(pending[i + 1])
  if old.t < now - keep then
    redis.call('HDEL', KEYS[2], pending[i])
    for _, p in ipairs(old.p) do redis.call('HDEL', KEYS[4], p[1]) end
  end
end
return out
