-- Ends a waiting ticket (cancelled or expired). Returns the status it had.
-- KEYS: 1 ticket hash, 2 updates stream, 3 waiting set
-- ARGV: 1 ticket id, 2 final status, 3 seconds to keep the ended ticket
local status = redis.call('HGET', KEYS[1], 'status')
if not status then
  return 'missing'
end
if status ~= 'waiting' then
  return status
end
redis.call('HSET', KEYS[1], 'status', ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('XADD', KEYS[2], 'MAXLEN', '~', 100, '*', 'status', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return 'waiting'
