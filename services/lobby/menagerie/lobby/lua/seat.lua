-- Seats the claimed tickets once their match exists, and tells each watcher.
-- KEYS: 1 claims set, 2 claim hash, then per ticket: ticket hash, updates stream
-- ARGV: 1 match id, 2 seconds to keep seated tickets, then per ticket: seating (msgpack)
for i = 3, #KEYS, 2 do
  local n = (i - 1) / 2
  if redis.call('HGET', KEYS[i], 'match_id') == ARGV[1] then
    redis.call('HSET', KEYS[i], 'status', 'seated', 'seating', ARGV[2 + n])
    redis.call('XADD', KEYS[i + 1], 'MAXLEN', '~', 100, '*', 'status', 'seated')
    redis.call('EXPIRE', KEYS[i], ARGV[2])
    redis.call('EXPIRE', KEYS[i + 1], ARGV[2])
  end
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
return 1
