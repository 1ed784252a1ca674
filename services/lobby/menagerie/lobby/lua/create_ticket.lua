-- A new ticket, waiting in its queue (or at its table).
-- KEYS: 1 ticket hash, 2 ticket updates stream, 3 waiting set of its queue or table
-- ARGV: 1 ticket id, 2 spec (msgpack), 3 created ms
redis.call('HSET', KEYS[1], 'status', 'waiting', 'spec', ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
redis.call('XADD', KEYS[2], 'MAXLEN', '~', 100, '*', 'status', 'waiting')
return 1
