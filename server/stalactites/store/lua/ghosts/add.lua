-- Index a run, then keep the index within its bounds: at most ARGV[6] runs of one deal (the
-- oldest indexed go first), and at most ARGV[5] runs of this kind (won, or not) in the
-- run's rating band of ARGV[4] points (the oldest indexed go first).
-- KEYS[1] the runs of this kind by rating, KEYS[2] the runs of the other kind by rating,
-- KEYS[3] this kind's runs by when indexed, KEYS[4] the other kind's, KEYS[5] the deal's
-- runs by when indexed (members dropped by a band linger there until the deal's next run)
-- ARGV[1] the run (ROOM_ID|PLAYER_ID), ARGV[2] its rating, ARGV[3] now (ms), ARGV[4] the
-- band's width, ARGV[5] runs per band, ARGV[6] runs per deal, ARGV[7] the deal's key's
-- time to live (ms)
local member, rating, at = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local width, per_band, per_deal = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])

local function indexed(m)
  return redis.call('ZSCORE', KEYS[3], m) or redis.call('ZSCORE', KEYS[4], m)
end

local function drop(m)
  for k = 1, 4 do redis.call('ZREM', KEYS[k], m) end
end

redis.call('ZADD', KEYS[1], rating, member)
redis.call('ZADD', KEYS[3], 'NX', at, member)
redis.call('ZADD', KEYS[5], 'NX', at, member)
redis.call('PEXPIRE', KEYS[5], ARGV[7])

for _, m in ipairs(redis.call('ZRANGE', KEYS[5], 0, -1)) do
  if not indexed(m) then redis.call('ZREM', KEYS[5], m) end
end
local extra = redis.call('ZCARD', KEYS[5]) - per_deal
if extra > 0 then
  for _, m in ipairs(redis.call('ZRANGE', KEYS[5], 0, extra - 1)) do
    redis.call('ZREM', KEYS[5], m)
    drop(m)
  end
end

local low = math.floor(rating / width) * width
local band = redis.call('ZRANGE', KEYS[1], low, '(' .. (low + width), 'BYSCORE')
if #band > per_band then
  local aged = {}
  for _, m in ipairs(band) do
    aged[#aged + 1] = {tonumber(redis.call('ZSCORE', KEYS[3], m)) or 0, m}
  end
  table.sort(aged, function(a, b)
    if a[1] ~= b[1] then return a[1] < b[1] end
    return a[2] < b[2]
  end)
  for k = 1, #band - per_band do drop(aged[k][2]) end
end
return 1
