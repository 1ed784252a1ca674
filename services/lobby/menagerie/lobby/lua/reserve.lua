-- Takes a player's slots for a new ticket (and table), all or none, within the caps.
-- Counting and taking happen in one step, so calls racing at the cap cannot both pass.
-- Activity renews a guest's expiry; a player who has played has none, and keeps none.
-- Returns {'ok'}, {'missing'} (no such player: a guest that expired) or
-- {'full', kind, field, reserved ms, field, reserved ms, ...} (the slots of that kind held).
-- KEYS: 1 player hash
-- ARGV: 1 now ms, 2 guest ttl seconds, 3 number of stale fields to drop first, then those
--       fields, then per slot wanted: kind, cap, id (the field is kind:id)
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'missing'}
end
local drops = tonumber(ARGV[3])
for i = 4, 3 + drops do
  redis.call('HDEL', KEYS[1], ARGV[i])
end
local first = 4 + drops
local fields = redis.call('HGETALL', KEYS[1])
for j = first, #ARGV, 3 do
  local prefix = ARGV[j] .. ':'
  local held = {'full', ARGV[j]}
  for i = 1, #fields, 2 do
    if string.sub(fields[i], 1, #prefix) == prefix then
      held[#held + 1] = fields[i]
      held[#held + 1] = fields[i + 1]
    end
  end
  if (#held - 2) / 2 >= tonumber(ARGV[j + 1]) then
    return held
  end
end
for j = first, #ARGV, 3 do
  redis.call('HSET', KEYS[1], ARGV[j] .. ':' .. ARGV[j + 2], ARGV[1])
end
if redis.call('TTL', KEYS[1]) >= 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[2])
end
return {'ok'}
