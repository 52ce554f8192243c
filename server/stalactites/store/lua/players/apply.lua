-- Apply one player's part of a finished race, once: rating, statistics (the median winning
-- time kept with them, so a profile is one read), winning times and the history entry,
-- unless the history holds the race already.
-- KEYS[1] the player's hash, KEYS[2] the history order (sorted set of marks, all scored 0),
-- KEYS[3] the history (room id -> [entry, before, after]), KEYS[4] this game and step's
-- winning times (sorted set: room id scored by elapsed ms), KEYS[5] the player's sessions,
-- KEYS[6] the reports the player made (kept for good with it)
-- ARGV[1] room id, ARGV[2] its mark (FINISHED_AT:ROOM_ID), ARGV[3] the entry (its fields
-- before the ratings, '|' between them),
-- ARGV[4] the game, ARGV[5] "GAME:STEP", ARGV[6] won (1/0), ARGV[7] elapsed ms,
-- ARGV[8] rated (1/0), ARGV[9..12] mu and sigma before, mu and sigma after, ARGV[13] the deal
-- The entry kept: ENTRY|ORDINAL_BEFORE|ORDINAL_AFTER|DEAL (ordinals empty when unrated).
-- A player that expired (an anonymous one) is kept for good from now on.
-- Returns {'applied', 'already' or 'no_player'; the skeleton of the name whose claim is to be
-- kept for good now, or ''}.
--#include player_kept
if redis.call('EXISTS', KEYS[1]) == 0 then return {'no_player', ''} end
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then return {'already', ''} end
local function num(x) return string.format('%.17g', x) end
local function short(x) return string.format('%.6g', x) end  -- shown ratings need no more
local change = '|'
if ARGV[8] == '1' then
  local field = 'rating:' .. ARGV[4]
  local mu, sigma, races = 25.0, 25.0 / 3.0, 0
  local stored = redis.call('HGET', KEYS[1], field)
  if stored then
    local a, b, c = string.match(stored, '^([^|]+)|([^|]+)|([^|]+)$')
    mu, sigma, races = tonumber(a), tonumber(b), tonumber(c)
  end
  local mu_b, sigma_b = tonumber(ARGV[9]), tonumber(ARGV[10])
  local mu_a, sigma_a = tonumber(ARGV[11]), tonumber(ARGV[12])
  local new_mu, new_sigma = mu_a, sigma_a  -- unchanged since it was rated: the rating computed
  if mu ~= mu_b or sigma ~= sigma_b then  -- changed meanwhile: this race's change added to it
    new_mu, new_sigma = mu + (mu_a - mu_b), sigma * (sigma_a / sigma_b)
  end
  redis.call('HSET', KEYS[1], field, num(new_mu) .. '|' .. num(new_sigma) .. '|' .. (races + 1))
  redis.call('HINCRBY', KEYS[1], 'board', 1)
  change = short(mu - 3 * sigma) .. '|' .. short(new_mu - 3 * new_sigma)  -- the ordinals
end
local field = 'stats:' .. ARGV[5]
local races, wins, streak, best_streak, best, median = 0, 0, 0, 0, -1, -1
local stored = redis.call('HGET', KEYS[1], field)
if stored then
  local a, b, c, d, e, f = string.match(stored, '^(%d+)|(%d+)|(%d+)|(%d+)|(-?%d+)|?(-?%d*)$')
  races, wins, streak, best_streak, best = tonumber(a), tonumber(b), tonumber(c), tonumber(d), tonumber(e)
  median = tonumber(f) or -1
end
races = races + 1
if ARGV[6] == '1' then
  local elapsed = tonumber(ARGV[7])
  wins, streak = wins + 1, streak + 1
  if best < 0 or elapsed < best then best = elapsed end
  redis.call('ZADD', KEYS[4], elapsed, ARGV[1])
  local count = redis.call('ZCARD', KEYS[4])  -- the median: the middle one or two times
  local middle = redis.call('ZRANGE', KEYS[4], math.floor((count - 1) / 2), math.floor(count / 2), 'WITHSCORES')
  local sum = 0
  for j = 2, #middle, 2 do sum = sum + tonumber(middle[j]) end
  median = math.floor(sum / (#middle / 2))
else
  streak = 0
end
if streak > best_streak then best_streak = streak end
redis.call('HSET', KEYS[1], field, races .. '|' .. wins .. '|' .. streak .. '|' .. best_streak .. '|' .. best .. '|' .. median)
redis.call('ZADD', KEYS[2], 0, ARGV[2])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3] .. '|' .. change .. '|' .. ARGV[13])
local claim = kept_for_good(KEYS[1], KEYS[5], KEYS[6])
return {'applied', claim}
