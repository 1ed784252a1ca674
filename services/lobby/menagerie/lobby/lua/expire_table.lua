-- Closes a private table nobody completed in its lifetime: every waiting ticket expires
-- and the table takes no more players. Not while a claim is starting its match.
-- Returns 'expired', 'claimed' (a match is starting), 'changed' (the waiting set is not
-- the one given: read it again) or 'gone' (no such table).
-- KEYS: 1 table hash, 2 its waiting set, 3 its claims set, then per waiting ticket:
--       ticket hash, its updates stream
-- ARGV: 1 seconds to keep the table and its ended tickets, 2.. the waiting ticket ids
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 'gone'
end
if redis.call('ZCARD', KEYS[3]) > 0 then
  return 'claimed'
end
if redis.call('ZCARD', KEYS[2]) ~= #ARGV - 1 then
  return 'changed'
end
for i = 2, #ARGV do
  if not redis.call('ZSCORE', KEYS[2], ARGV[i]) then
    return 'changed'
  end
end
for i = 2, #ARGV do
  local ticket = KEYS[4 + (i - 2) * 2]
  local updates = KEYS[5 + (i - 2) * 2]
  if redis.call('HGET', ticket, 'status') == 'waiting' then
    redis.call('HSET', ticket, 'status', 'expired')
    redis.call('XADD', updates, 'MAXLEN', '~', 100, '*', 'status', 'expired')
    redis.call('EXPIRE', ticket, ARGV[1])
    redis.call('EXPIRE', updates, ARGV[1])
  end
end
redis.call('DEL', KEYS[2])
if redis.call('HGET', KEYS[1], 'status') == 'open' then
  redis.call('HSET', KEYS[1], 'status', 'expired')
end
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 'expired'
