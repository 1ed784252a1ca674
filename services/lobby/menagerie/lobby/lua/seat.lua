-- Seats the claimed tickets of matches that now exist, and tells each watcher. Many
-- matches of one queue are seated in one call. A ticket is seated only by the match
-- that claimed it, and once: a replica completing the same claim later (its match
-- created again, idempotently) finds it seated and changes nothing.
-- KEYS: 1 claims set, then per match: its claim hash, then per ticket: ticket hash, updates stream
-- ARGV: 1 seconds to keep seated tickets, 2 number of matches, then per match: match id,
--       number of tickets n, then the n seatings (msgpack, same order as their KEYS)
local k = 2
local a = 3
for m = 1, tonumber(ARGV[2]) do
  local match_id, n = ARGV[a], tonumber(ARGV[a + 1])
  for i = 1, n do
    local ticket, updates = KEYS[k + 2 * i - 1], KEYS[k + 2 * i]
    local state = redis.call('HMGET', ticket, 'status', 'match_id')
    if state[1] == 'claimed' and state[2] == match_id then
      redis.call('HSET', ticket, 'status', 'seated', 'seating', ARGV[a + 1 + i])
      redis.call('XADD', updates, 'MAXLEN', '~', 100, '*', 'status', 'seated')
      redis.call('EXPIRE', ticket, ARGV[1])
      redis.call('EXPIRE', updates, ARGV[1])
    end
  end
  redis.call('ZREM', KEYS[1], match_id)
  redis.call('DEL', KEYS[k])
  k = k + 1 + 2 * n
  a = a + 2 + n
end
return 1
