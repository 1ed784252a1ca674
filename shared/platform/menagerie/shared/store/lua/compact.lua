-- Compacts a finished match (docs/architecture.md "Lua scripts"): its event stream and idempotency
-- answers, packed and compressed by the caller into one record, become the state hash's
-- 'archive' field; the stream keeps only its last entry (what a parked watcher's reader
-- still finds after the id it waits from) and the idempotency hash goes.
--
-- Returns 1 once compacted, 0 when the match is not finished at that version (nothing done).
--
-- KEYS: 1 state hash, 2 events stream, 3 idempotency hash
-- ARGV: 1 the finished match's version, 2 the archive
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] or redis.call('HGET', KEYS[1], 'status') ~= 'finished' then
  return 0
end
redis.call('HSET', KEYS[1], 'archive', ARGV[2])
-- Written anew rather than trimmed: a trimmed stream keeps its deleted entries' node.
local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)[1]
local ttl = redis.call('PTTL', KEYS[2])
redis.call('DEL', KEYS[2])
if last then
  redis.call('XADD', KEYS[2], last[1], unpack(last[2]))
  if ttl > 0 then
    redis.call('PEXPIRE', KEYS[2], ttl)
  end
end
redis.call('DEL', KEYS[3])
return 1
