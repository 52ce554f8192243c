-- A quick race is over: its players race no more, and their matched frames of it go.
-- KEYS[1] the racing hash, KEYS[2] the racing ends (see pair.lua), KEYS[3..] each player's
-- result key in the race's queue
-- ARGV[1] the room id, ARGV[2..] each player's id (in the order of KEYS[3..])
-- Returns how many players were marked racing in that room.
local room, cleared = ARGV[1], 0
local mark = '"room_id":"' .. room .. '"'
for k = 3, #KEYS do
  local player = ARGV[k - 1]
  if redis.call('HGET', KEYS[1], player) == room then
    redis.call('HDEL', KEYS[1], player)
    redis.call('ZREM', KEYS[2], player)
    cleared = cleared + 1
  end
  local frame = redis.call('GET', KEYS[k])
  if frame and string.find(frame, mark, 1, true) then redis.call('DEL', KEYS[k]) end
end
return cleared
