-- How many players wait in a queue (a live lease) and when this one joined.
-- KEYS[1] the entries hash (see include/queue_alive.lua)
-- ARGV[1] player id, ARGV[2] now (unix ms), ARGV[3] the queue
-- Returns {waiting, joined ms or -1}.
--#include queue_alive
local list = live_entries(KEYS[1], tonumber(ARGV[2]))
local waiting, joined = 0, -1
for _, entry in ipairs(list) do
  if entry.q == ARGV[3] then
    waiting = waiting + 1
    if entry.id == ARGV[1] then joined = entry.j end
  end
end
return {waiting, joined}
