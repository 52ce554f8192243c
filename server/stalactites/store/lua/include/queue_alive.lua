-- The live entries of a queue (a lease not yet run out), read by pair.lua and status.lua.
local function live_entries(key, now)
  local flat = redis.call('HGETALL', key)
  local list = {}
  for i = 1, #flat, 2 do
    local entry = cjson.decode(flat[i + 1])
    local alive = false
    for _, until_ms in pairs(entry.l) do
      if until_ms > now then alive = true end
    end
    if alive then
      entry.id = flat[i]
      list[#list + 1] = entry
    end
  end
  return list, flat
end
