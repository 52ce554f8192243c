-- The median winning time of each of a player's games and steps.
-- KEYS[1..] the player's winning-time sorted sets (room id scored by elapsed ms), one slot
-- ARGV: none
-- Returns, per key, the middle one or two scores ({} when there are none).
local answer = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('ZCARD', key)
  if count == 0 then
    answer[i] = {}
  else
    local middle = redis.call('ZRANGE', key, math.floor((count - 1) / 2), math.floor(count / 2), 'WITHSCORES')
    local scores = {}
    for j = 2, #middle, 2 do scores[#scores + 1] = middle[j] end
    answer[i] = scores
  end
end
return answer
