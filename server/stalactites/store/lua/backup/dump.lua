#!lua flags=no-writes
-- One key as `stalactites backup` keeps it, read in one step (so it is never half a key).
-- KEYS[1] the key
-- Returns {when it expires (unix ms) or -1, its DUMP payload}, or false if it is gone.
local payload = redis.call('DUMP', KEYS[1])
if not payload then return false end
return {redis.call('PEXPIRETIME', KEYS[1]), payload}
