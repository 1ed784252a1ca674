-- One accepted move, atomically (docs/architecture.md "Lua scripts"): the idempotency check, the
-- version check, the new state, the entry on the match's event stream, the recorded
-- answer, the turn notice on the shard's feed and the deadlines of the seats to act.
--
-- Returns {'ok'}, {'duplicate', first answer}, {'conflict', current version} or {'missing'}.
--
-- KEYS: 1 state hash, 2 events stream, 3 idempotency hash, 4 shard turn feed,
--       5 shard deadlines, 6 shard active index, 7 shard finished index,
--       8 shard results feed (the notice again when the match ends; bounded as the turn feed is)
-- ARGV[1] is one packed record ("<length>:<bytes>" per value, in this order; one
-- argument instead of 27 is what the caller spends least on building):
--        1 match id          2 loaded version     3 new version        4 idempotency field
--        5 answer            6 turn notice        7 feed maxlen        8 retention s if the match ends, else 0
--        9 created ms       10 prune finished index below this score
--       11..17 state hash: state, seat_versions, to_act, deadlines, status, outcome, updated_ms
--       18..22 event entry: seat, action, events, time, auto
--       23 deadline members to remove, space-separated
--       24 deadlines to add, "score member score member ..."
--       25 the feed keeps entries from this id on (its age bound: now less the longest age)
--       26 every seat's decision count with this move counted (state hash field 'decisions')
--       27 the engine's label of a timeout decision's action (event entry field 'label'; '' otherwise)
local ARGV = (function(record)
  local out, pos = {}, 1
  while pos <= #record do
    local colon = string.find(record, ':', pos, true)
    local length = tonumber(string.sub(record, pos, colon - 1))
    out[#out + 1] = string.sub(record, colon + 1, colon + length)
    pos = colon + length + 1
  end
  return out
end)(ARGV[1])
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

redis.call('HSET', KEYS[1], 'version', ARGV[3],
  'state', ARGV[11], 'seat_versions', ARGV[12], 'to_act', ARGV[13], 'deadlines', ARGV[14],
  'status', ARGV[15], 'outcome', ARGV[16], 'updated_ms', ARGV[17], 'decisions', ARGV[26])
if ARGV[27] ~= '' then
  redis.call('XADD', KEYS[2], ARGV[3] .. '-1',
    'seat', ARGV[18], 'action', ARGV[19], 'events', ARGV[20], 'time', ARGV[21], 'auto', ARGV[22], 'label', ARGV[27])
else
  redis.call('XADD', KEYS[2], ARGV[3] .. '-1',
    'seat', ARGV[18], 'action', ARGV[19], 'events', ARGV[20], 'time', ARGV[21], 'auto', ARGV[22])
end
redis.call('HSET', KEYS[3], ARGV[4], ARGV[5])
redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[7], '*', 'pb', ARGV[6])
redis.call('XTRIM', KEYS[4], 'MINID', '~', ARGV[25])
for member in string.gmatch(ARGV[23], '%S+') do
  redis.call('ZREM', KEYS[5], member)
end
local added = {}
for word in string.gmatch(ARGV[24], '%S+') do
  added[#added + 1] = word
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
  redis.call('XADD', KEYS[8], 'MAXLEN', '~', ARGV[7], '*', 'pb', ARGV[6])
  redis.call('XTRIM', KEYS[8], 'MINID', '~', ARGV[25])
end
return {'ok'}
