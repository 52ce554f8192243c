-- kept_for_good(player hash, sessions key): an anonymous player who raced or registered is
-- kept: its expiry goes; answers the name claim to keep too ('' when it was kept already).
local function kept_for_good(player, sessions)
  if redis.call('HEXISTS', player, 'expires') == 0 then return '' end
  local claim = redis.call('HGET', player, 'claim') or ''
  redis.call('HDEL', player, 'expires', 'claim')
  redis.call('PERSIST', player)
  redis.call('PERSIST', sessions)
  return claim
end
