-- Creates a match atomically: its state, its first event-stream entry (version 1),
-- the turn notice, the deadlines of the seats to act and the shard's index entry.
-- Returns 0 when the match exists already (the caller then compares), else 1.
--
-- KEYS: 1 state hash, 2 events stream, 3 shard turn feed, 4 shard deadlines, 5 shard active index,
--       6 shard results feed (the notice again when the match is over at its creation)
-- ARGV: 1 match id, 2 created ms, 3 turn notice, 4 feed maxlen, 5 '1' when over at creation, else '0',
--       then H and H (field, value) pairs of the state hash,
--       then E and E (field, value) pairs of the event entry,
--       then A and A (score, member) pairs of deadlines
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local i = 6
local function take_pairs()
  local n = tonumber(ARGV[i])
  local out = {}
  for j = 1, 2 * n do
    out[j] = ARGV[i + j]
  end
  i = i + 2 * n + 1
  return out
end
local state = take_pairs()
local entry = take_pairs()
local deadlines = take_pairs()
redis.call('HSET', KEYS[1], unpack(state))
redis.call('XADD', KEYS[2], '1-1', unpack(entry))
redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[4], '*', 'pb', ARGV[3])
if ARGV[5] == '1' then
  redis.call('XADD', KEYS[6], 'MAXLEN', '~', ARGV[4], '*', 'pb', ARGV[3])
end
if #deadlines > 0 then
  redis.call('ZADD', KEYS[4], unpack(deadlines))
end
redis.call('ZADD', KEYS[5], ARGV[2], ARGV[1])
return 1
