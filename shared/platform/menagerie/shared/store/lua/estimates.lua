-- Keeps a finished match's win estimates beside it (docs/architecture.md "Match keys"): the
-- estimates key gets the state hash's remaining time to live, so both go together.
--
-- Returns 1 once written, 0 when the match is missing or not finished (nothing done).
--
-- KEYS: 1 state hash, 2 estimates key
-- ARGV: 1 the estimates (WinEstimates, msgpack)
if redis.call('HGET', KEYS[1], 'status') ~= 'finished' then
  return 0
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ttl)
else
  redis.call('SET', KEYS[2], ARGV[1])
end
return 1
