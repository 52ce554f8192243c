-- The pairing step of one queue: drop entries whose leases all ran out, then pair the longest
-- waiter with the ARGV[5] - 1 others nearest in rating that its window allows, never two of
-- one address nor two of whom one blocks the other, and two matched within ARGV[8] ms only
-- when nobody else is free for the waiter;
-- and so on (the same rule as stalactites.store.queue.base.pairings).  Players racing are not
-- paired.  Paired entries leave the queue, each pairing is kept pending until settled
-- (pendings older than ARGV[6] ms are forgotten).
-- KEYS[1] the entries hash (see include/queue_alive.lua), KEYS[2] the pending pairings hash
-- (match id -> {"t": made at, "q": queue, "p": players}), KEYS[3] the match id counter, KEYS[4]
-- the paired players hash (player id -> their pending match id), KEYS[5] the racing hash
-- (player id -> room id), KEYS[6] the racing ends (sorted set: player id -> unix ms), KEYS[7]
-- the recent pairs (sorted set: "A|B", the ids in order -> matched at, unix ms), KEYS[8] the
-- blocked pairs (set: "A|B" where one blocks the other: never paired)
-- ARGV[1] now (unix ms), ARGV[2] the window at once, ARGV[3] its widening per second,
-- ARGV[4] the wait (ms) after which anyone is near enough, ARGV[5] players per room,
-- ARGV[6] how long a pending pairing is kept (ms), ARGV[7] the queue, ARGV[8] how long a pair
-- is recent (ms)
-- Returns one JSON text per pairing: [match id, [[player id, name, rating, joined, address],
-- ...]].
--#include queue_alive
local now, base, per_s = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local anyone, size, keep = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local queue, recent_ms = ARGV[7], tonumber(ARGV[8])
local over = redis.call('ZRANGEBYSCORE', KEYS[6], '-inf', now, 'LIMIT', 0, 100)
for _, id in ipairs(over) do
  redis.call('HDEL', KEYS[5], id)
  redis.call('ZREM', KEYS[6], id)
end
redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', '(' .. (now - recent_ms))
local all, flat = live_entries(KEYS[1], now)
if #all * 2 < #flat then
  local alive = {}
  for _, entry in ipairs(all) do alive[entry.id] = true end
  for i = 1, #flat, 2 do
    if not alive[flat[i]] then redis.call('HDEL', KEYS[1], flat[i]) end
  end
end
local list = {}
for _, entry in ipairs(all) do
  if entry.q == queue then
    if redis.call('HEXISTS', KEYS[5], entry.id) == 1 then
      redis.call('HDEL', KEYS[1], entry.id)  -- racing: not queued (enqueue.lua never lets it)
    else
      list[#list + 1] = entry
    end
  end
end
local function older(a, b)
  if a.j ~= b.j then return a.j < b.j end
  return a.id < b.id
end
local function same_address(a, b)
  return a.a ~= nil and a.a ~= '' and a.a == b.a
end
local function recent(a, b)
  local key = a.id < b.id and (a.id .. '|' .. b.id) or (b.id .. '|' .. a.id)
  return redis.call('ZSCORE', KEYS[7], key) ~= false
end
local function blocked(a, b)
  local key = a.id < b.id and (a.id .. '|' .. b.id) or (b.id .. '|' .. a.id)
  return redis.call('SISMEMBER', KEYS[8], key) == 1
end
local function apart(a, b, avoid)
  if same_address(a, b) or blocked(a, b) then return false end
  return not (avoid and recent(a, b))
end
table.sort(list, older)
local placed, out = {}, {}
for _, first in ipairs(list) do
  if not placed[first.id] then
    local waited = now - first.j
    local window = base + per_s * math.max(waited, 0) / 1000
    if waited >= anyone then window = math.huge end
    local near, avoid = {}, false
    for _, other in ipairs(list) do
      if not placed[other.id] and other.id ~= first.id and not same_address(first, other)
          and not blocked(first, other) then
        if not avoid and not recent(first, other) then avoid = true end
        local gap = math.abs(other.r - first.r)
        if gap <= window then near[#near + 1] = {gap, other} end
      end
    end
    table.sort(near, function(a, b)
      if a[1] ~= b[1] then return a[1] < b[1] end
      return older(a[2], b[2])
    end)
    local room = {first}
    for _, item in ipairs(near) do
      if #room == size then break end
      local fits = true
      for _, member in ipairs(room) do
        if fits and not apart(member, item[2], avoid) then fits = false end
      end
      if fits then room[#room + 1] = item[2] end
    end
    if #room == size then
      local id = 'm' .. redis.call('INCR', KEYS[3])
      local players = {}
      for _, p in ipairs(room) do
        placed[p.id] = true
        redis.call('HDEL', KEYS[1], p.id)
        redis.call('HSET', KEYS[4], p.id, id)
        players[#players + 1] = {p.id, p.n, p.r, p.j, p.a or ''}
      end
      redis.call('HSET', KEYS[2], id, cjson.encode({t = now, q = queue, p = players}))
      out[#out + 1] = cjson.encode({id, players})
    end
  end
end
local pending = redis.call('HGETALL', KEYS[2])
for i = 1, #pending, 2 do
  local old = cjson.decode(pending[i + 1])
  if old.t < now - keep then
    redis.call('HDEL', KEYS[2], pending[i])
    for _, p in ipairs(old.p) do
      if redis.call('HGET', KEYS[4], p[1]) == pending[i] then redis.call('HDEL', KEYS[4], p[1]) end
    end
  end
end
return out
