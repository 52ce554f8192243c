-- Count a hint given to a player (solo practice), in the room's hash: "hints:PLAYER_ID".
-- KEYS[1] the room's hash; ARGV[1] the player id
-- Returns the hints given to that player so far (0: the room is gone, nothing counted).
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('HINCRBY', KEYS[1], 'hints:' .. ARGV[1], 1)
