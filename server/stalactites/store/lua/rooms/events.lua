-- The room events after a seq.
-- KEYS: 1 room hash, 2 event list
-- ARGV: 1 the seq after which events are wanted, 2 how many at most (-1: all)
-- Answers {newest seq, 1 if the log no longer reaches back that far else 0, events}.
local seq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
local kept = redis.call('LLEN', KEYS[2])
local base = seq - kept
local since, limit = tonumber(ARGV[1]), tonumber(ARGV[2])
if since < base then return {seq, 1, {}} end
if since >= seq or limit == 0 then return {seq, 0, {}} end
local stop = -1
if limit > 0 then stop = since - base + limit - 1 end
return {seq, 0, redis.call('LRANGE', KEYS[2], since - base, stop)}
