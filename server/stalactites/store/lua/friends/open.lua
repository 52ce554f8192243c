-- Take the lock of a pair's open challenge, unless another challenge holds it still.
-- KEYS[1] the pair's lock ("CHALLENGE_ID|EXPIRES_MS", expiring then)
-- ARGV[1] the new challenge's id, ARGV[2] now (the server's clock), ARGV[3] when it expires
-- Returns the id of the challenge that holds the lock, or nil if this one took it.
local held = redis.call('GET', KEYS[1])
if held then
    local id, expires = string.match(held, '^(.*)|(%d+)$')
    if tonumber(expires) > tonumber(ARGV[2]) then
        return id
    end
end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. ARGV[3], 'PXAT', ARGV[3])
return false
