-- Leases on a room's bell (store/redis/bell_leases.py): a sorted set of processes, each scored by the
-- end of its lease on Redis's clock, in ms (rooms/listen.lua takes them, commit.lua reads them).
local function clock_ms()
  local clock = redis.call('TIME')
  return clock[1] * 1000 + math.floor(clock[2] / 1000)
end
local function lease_live(key, process, now_ms)
  local held = redis.call('ZSCORE', key, process)
  return held ~= false and tonumber(held) >= now_ms
end
