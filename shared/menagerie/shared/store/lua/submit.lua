-- One accepted move, atomically (DESIGN.md "Storage"): the idempotency check, the
-- version check, the new state, the entry on the match's event stream, the recorded
-- answer, the turn notice on the shard's feed and the deadlines of the seats to act.
--
-- Returns {'ok'}, {'duplicate', first answer}, {'conflict', current version} or {'missing'}.
--
-- KEYS: 1 state hash, 2 events stream, 3 idempotency hash, 4 shard turn feed,
--       5 shard deadlines, 6 shard active index, 7 shard finished index
-- ARGV: 1 match id, 2 loaded version, 3 new version, 4 idempotency field, 5 answer,
--       6 turn notice, 7 feed maxlen, 8 retention seconds if the match ends now else 0,
--       9 created ms (index score), 10 prune finished index below this score,
--       then H and H (field, value) pairs of the state hash,
--       then E and E (field, value) pairs of the event entry,
--       then R and R deadline members to remove,
--       then A and A (score, member) pairs of deadlines to add
local answer = redis.call('HGET', KEYS[3], ARGV[4])
if answer then
  return {'duplicate', answer}
end
local current = redis.call('HGET', KEYS[1], 'version')
if not current then
  return {'missing'}
end
if current ~= ARGV[2] then
  return {'conflict', current}
end

local i = 11
local function take(width)
  local n = tonumber(ARGV[i])
  local out = {}
  for j = 1, width * n do
    out[j] = ARGV[i + j]
  end
  i = i + width * n + 1
  return out
end
local state = take(2)
local entry = take(2)
local removed = take(1)
local added = take(2)

redis.call('HSET', KEYS[1], 'version', ARGV[3], unpack(state))
redis.call('XADD', KEYS[2], ARGV[3] .. '-1', unpack(entry))
redis.call('HSET', KEYS[3], ARGV[4], ARGV[5])
redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[7], '*', 'pb', ARGV[6])
if #removed > 0 then
  redis.call('ZREM', KEYS[5], unpack(removed))
end
if #added > 0 then
  redis.call('ZADD', KEYS[5], unpack(added))
end
if ARGV[8] ~= '0' then
  redis.call('EXPIRE', KEYS[1], ARGV[8])
  redis.call('EXPIRE', KEYS[2], ARGV[8])
  redis.call('EXPIRE', KEYS[3], ARGV[8])
  redis.call('ZREM', KEYS[6], ARGV[1])
  redis.call('ZADD', KEYS[7], ARGV[9], ARGV[1])
  redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', '(' .. ARGV[10])
end
return {'ok'}
