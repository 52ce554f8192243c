-- Give a username key up, if the player owns it.
-- KEYS[1] the username key
-- ARGV[1] the player id
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 'ok'
