-- How many players wait (a live lease) and when this one joined.
-- KEYS[1] the queue's entries hash (see enqueue.lua)
-- ARGV[1] player id, ARGV[2] now (unix ms)
-- Returns {waiting, joined ms or -1}.
--#include queue_alive
local list = live_entries(KEYS[1], tonumber(ARGV[2]))
local joined = -1
for _, entry in ipairs(list) do
  if entry.id == ARGV[1] then joined = entry.j end
end
return {#list, joined}
