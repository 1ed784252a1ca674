-- A waiting player leaves a private table: the ticket is cancelled and the seat freed;
-- the table closes (and is kept a while) when nobody is left. Returns the status the ticket had.
-- KEYS: 1 table hash, 2 table's waiting set, 3 ticket hash, 4 its updates stream
-- ARGV: 1 ticket id, 2 player id, 3 seat, 4 seconds to keep the ended ticket
local status = redis.call('HGET', KEYS[3], 'status')
if not status then
  return 'missing'
end
if status ~= 'waiting' then
  return status
end
redis.call('HSET', KEYS[3], 'status', 'cancelled')
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('XADD', KEYS[4], 'MAXLEN', '~', 100, '*', 'status', 'cancelled')
redis.call('EXPIRE', KEYS[3], ARGV[4])
redis.call('EXPIRE', KEYS[4], ARGV[4])
redis.call('HDEL', KEYS[1], 'seat:' .. ARGV[3], 'player:' .. ARGV[2])
if redis.call('ZCARD', KEYS[2]) == 0 then
  redis.call('HSET', KEYS[1], 'status', 'closed')
  redis.call('EXPIRE', KEYS[1], ARGV[4])
end
return 'waiting'
