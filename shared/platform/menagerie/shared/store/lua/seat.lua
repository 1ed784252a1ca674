-- A player leaves a seat to a bot or returns to it (docs/architecture.md "Leaving a seat"): the
-- state hash's away, seating and deadlines fields, the seat's deadline in the shard's set and a
-- turn notice, so that the dispatcher sends a bot at once to a seat left while it must act.
-- No move: the version stays; seating goes up, which submit.lua checks.
--
-- Returns 1 once written, 0 when the match moved on (another version or seating) or is gone.
--
-- KEYS: 1 state hash, 2 shard turn feed, 3 shard deadlines
-- ARGV: 1 SeatArgs (menagerie.shared.store.scripts), msgpack: read below by its field names.
local args = cmsgpack.unpack(ARGV[1])
if redis.call('HGET', KEYS[1], 'version') ~= args.loaded_version
    or (redis.call('HGET', KEYS[1], 'seating') or '0') ~= args.loaded_seating
    or redis.call('HGET', KEYS[1], 'status') ~= 'active' then
  return 0
end
redis.call('HSET', KEYS[1], unpack(args.record))
if #args.deadlines_removed > 0 then
  redis.call('ZREM', KEYS[3], unpack(args.deadlines_removed))
end
if #args.deadlines_added > 0 then
  redis.call('ZADD', KEYS[3], unpack(args.deadlines_added))
end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', args.feed_maxlen, '*', 'pb', args.notice)
return 1
