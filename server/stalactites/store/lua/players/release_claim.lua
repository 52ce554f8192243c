-- Give a claimed key up (a username, a name's skeleton), if the player owns it.
-- KEYS[1] the key (its value: the owner's player id)
-- ARGV[1] the player id
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 'ok'
