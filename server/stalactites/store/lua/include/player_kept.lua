-- kept_for_good(player hash, ...): an anonymous player who raced or registered is kept: its
-- expiry goes, and that of its other keys given (sessions, reports made); answers the name
-- claim to keep too ('' when it was kept already).
local function kept_for_good(player, ...)
  if redis.call('HEXISTS', player, 'expires') == 0 then return '' end
  local claim = redis.call('HGET', player, 'claim') or ''
  redis.call('HDEL', player, 'expires', 'claim')
  redis.call('PERSIST', player)
  for _, key in ipairs({...}) do redis.call('PERSIST', key) end
  return claim
end
