-- Gives claimed tickets back to their queue when their match could not be created.
-- KEYS: 1 claims set, 2 claim hash, 3 waiting set, 4.. ticket hashes
-- ARGV: 1 match id, then per ticket: ticket id, created ms
for i = 4, #KEYS do
  local n = (i - 4) * 2
  if redis.call('HGET', KEYS[i], 'match_id') == ARGV[1] and redis.call('HGET', KEYS[i], 'status') == 'claimed' then
    redis.call('HSET', KEYS[i], 'status', 'waiting')
    redis.call('HDEL', KEYS[i], 'match_id')
    redis.call('ZADD', KEYS[3], ARGV[3 + n], ARGV[2 + n])
  end
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
return 1
