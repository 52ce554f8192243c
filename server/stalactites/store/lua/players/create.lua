-- Make a player: its name and creation time; an anonymous one expiring unless used or kept.
-- KEYS[1] the player's hash
-- ARGV[1] the name, ARGV[2] created (unix ms), ARGV[3] when it expires (unix ms; '' for
-- never), ARGV[4] its time to live (ms), ARGV[5] the skeleton its name is claimed under
if ARGV[3] == '' then
  redis.call('HSET', KEYS[1], 'name', ARGV[1], 'created', ARGV[2])
  return 'ok'
end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'created', ARGV[2], 'expires', ARGV[3], 'claim', ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 'ok'
