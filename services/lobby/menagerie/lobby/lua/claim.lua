-- Claims waiting tickets for matches, each match all or none: this is what keeps two
-- lobby replicas from ever seating one ticket twice. Many matches of one queue are
-- claimed in one call (one round trip per matchmaking pass, not one per table).
-- Returns one 1 (claimed) or 0 (a ticket was no longer waiting) per match, in order.
-- KEYS: 1 waiting set, 2 claims set, then per match: its claim hash, then its ticket hashes
-- ARGV: 1 now ms, 2 number of matches, then per match: match id, claim (msgpack),
--       number of tickets n, then the n ticket ids (same order as their KEYS)
local won = {}
local k = 3
local a = 3
for m = 1, tonumber(ARGV[2]) do
  local match_id, blob, n = ARGV[a], ARGV[a + 1], tonumber(ARGV[a + 2])
  local claim_key = KEYS[k]
  local free = true
  for i = 1, n do
    if redis.call('HGET', KEYS[k + i], 'status') ~= 'waiting' then
      free = false
      break
    end
  end
  if free then
    for i = 1, n do
      redis.call('HSET', KEYS[k + i], 'status', 'claimed', 'match_id', match_id)
      redis.call('ZREM', KEYS[1], ARGV[a + 2 + i])
    end
    redis.call('ZADD', KEYS[2], ARGV[1], match_id)
    redis.call('HSET', claim_key, 'claim', blob)
    won[m] = 1
  else
    won[m] = 0
  end
  k = k + 1 + n
  a = a + 3 + n
end
return won
