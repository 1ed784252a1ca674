-- Creates a match atomically: its state, its first event-stream entry (version 1),
-- the turn notice, the deadlines of the seats to act, the shard's index entry and what the
-- bot seats to act need to decide.
-- Returns 0 when the match exists already (the caller then compares), else 1.
--
-- KEYS: 1 state hash, 2 events stream, 3 shard turn feed, 4 shard deadlines, 5 shard active index,
--       6 shard results feed (the notice again when the match is over at its creation),
--       7 bot turns hash (seat -> BotTurn, menagerie.shared.bots)
-- ARGV: 1 CreateArgs (menagerie.shared.store.scripts), msgpack: read below by its field names.
--       Its record is the state hash's (field, value) pairs, as MatchRecord's codec made them.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local args = cmsgpack.unpack(ARGV[1])
redis.call('HSET', KEYS[1], unpack(args.record))
redis.call('XADD', KEYS[2], '1-1', unpack(args.entry))
-- The match's trace context rides beside the notice when traces are on (menagerie.shared.tracing).
if args.traceparent then
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', args.feed_maxlen, '*', 'pb', args.notice, 'traceparent', args.traceparent)
else
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', args.feed_maxlen, '*', 'pb', args.notice)
end
if args.finished then
  redis.call('XADD', KEYS[6], 'MAXLEN', '~', args.feed_maxlen, '*', 'pb', args.notice)
end
if #args.deadlines_added > 0 then
  redis.call('ZADD', KEYS[4], unpack(args.deadlines_added))
end
redis.call('ZADD', KEYS[5], args.created_ms, args.match_id)
if #args.bot_turns > 0 then
  redis.call('HSET', KEYS[7], unpack(args.bot_turns))
end
return 1
