-- Claims waiting tickets for one match, all or none: this is what keeps two lobby
-- replicas from ever seating one ticket twice.
-- KEYS: 1 waiting set, 2 claims set, 3 claim hash, 4.. ticket hashes
-- ARGV: 1 match id, 2 now ms, 3 claim (msgpack), 4.. ticket ids (same order as KEYS 4..)
for i = 4, #KEYS do
  if redis.call('HGET', KEYS[i], 'status') ~= 'waiting' then
    return 0
  end
end
for i = 4, #KEYS do
  redis.call('HSET', KEYS[i], 'status', 'claimed', 'match_id', ARGV[1])
  redis.call('ZREM', KEYS[1], ARGV[i])
end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[3], 'claim', ARGV[3])
return 1
