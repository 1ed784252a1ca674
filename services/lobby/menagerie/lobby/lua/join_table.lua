-- Takes the first free human seat at a private table for a player (once per player).
-- Returns {'joined', seat, free seats left}, {'already', ticket id}, {'bad_code'},
-- {'closed', status}, {'full'} or {'missing'}.
-- KEYS: 1 table hash, 2 table's waiting set, 3 new ticket hash, 4 its updates stream
-- ARGV: 1 join code, 2 player id, 3 ticket id, 4 created ms,
--       then per human seat in order: seat number, ticket spec (msgpack) for that seat
local table_state = redis.call('HMGET', KEYS[1], 'code', 'status')
if not table_state[1] then
  return {'missing'}
end
if ARGV[1] ~= table_state[1] then
  return {'bad_code'}
end
if table_state[2] ~= 'open' then
  return {'closed', table_state[2]}
end
local mine = redis.call('HGET', KEYS[1], 'player:' .. ARGV[2])
if mine then
  return {'already', mine}
end
for i = 5, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[1], 'seat:' .. ARGV[i]) == 0 then
    redis.call('HSET', KEYS[1], 'seat:' .. ARGV[i], ARGV[3], 'player:' .. ARGV[2], ARGV[3])
    redis.call('HSET', KEYS[3], 'status', 'waiting', 'spec', ARGV[i + 1])
    redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3])
    redis.call('XADD', KEYS[4], 'MAXLEN', '~', 100, '*', 'status', 'waiting')
    local free = 0
    for j = 5, #ARGV, 2 do
      if redis.call('HEXISTS', KEYS[1], 'seat:' .. ARGV[j]) == 0 then
        free = free + 1
      end
    end
    return {'joined', ARGV[i], tostring(free)}
  end
end
return {'full'}
