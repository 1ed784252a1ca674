-- One accepted move, atomically (docs/architecture.md "Lua scripts"): the idempotency check, the
-- version check, the new state, the entry on the match's event stream, the recorded
-- answer, the turn notice on the shard's feed, the deadlines of the seats to act and what the
-- bot seats to act now need to decide (the previous version's are gone: their decisions are made or stale).
-- When a spectator watches the match's chart and no live estimate was asked for in the last
-- throttle period, the notice carries 'live' '1' (the due key is set for that period): the
-- dispatcher sends the live estimate without a round trip of its own.
--
-- Returns {'ok'}, {'duplicate', first answer}, {'conflict', current version} or {'missing'}.
--
-- KEYS: 1 state hash, 2 events stream, 3 idempotency hash, 4 shard turn feed,
--       5 shard deadlines, 6 shard active index, 7 shard finished index,
--       8 shard results feed (the notice again when the match ends; bounded as the turn feed is),
--       9 bot turns hash (seat -> BotTurn, menagerie.shared.bots),
--       10 watched key (set while a spectator watches the chart), 11 live estimate due key
-- ARGV: 1 SubmitArgs (menagerie.shared.store.scripts), msgpack: read below by its field names.
--       Its record is the state hash's (field, value) pairs, as MatchRecord's codec made them:
--       this script names none of them but 'version' and 'seating', which it checks.
local args = cmsgpack.unpack(ARGV[1])
local answer = redis.call('HGET', KEYS[3], args.idempotency_field)
if answer then
  return {'duplicate', answer}
end
local current = redis.call('HGET', KEYS[1], 'version')
if not current then
  return {'missing'}
end
if current ~= args.loaded_version then
  return {'conflict', current}
end
-- A leave or return since the move was decided (seat.lua) changes who may play a seat: decide again.
if (redis.call('HGET', KEYS[1], 'seating') or '0') ~= args.loaded_seating then
  return {'conflict', current}
end

redis.call('HSET', KEYS[1], unpack(args.record))
redis.call('XADD', KEYS[2], args.entry_id, unpack(args.entry))
redis.call('HSET', KEYS[3], args.idempotency_field, args.answer)
-- The move's trace context rides beside the notice when traces are on (menagerie.shared.tracing).
local notice = {'pb', args.notice}
if args.traceparent then
  notice[#notice + 1] = 'traceparent'
  notice[#notice + 1] = args.traceparent
end
if redis.call('EXISTS', KEYS[10]) == 1 and redis.call('SET', KEYS[11], '1', 'NX', 'PX', args.live_every_ms) then
  notice[#notice + 1] = 'live'
  notice[#notice + 1] = '1'
end
redis.call('XADD', KEYS[4], 'MAXLEN', '~', args.feed_maxlen, '*', unpack(notice))
redis.call('XTRIM', KEYS[4], 'MINID', '~', args.feed_min_id)
if #args.deadlines_removed > 0 then
  redis.call('ZREM', KEYS[5], unpack(args.deadlines_removed))
end
if #args.deadlines_added > 0 then
  redis.call('ZADD', KEYS[5], unpack(args.deadlines_added))
end
redis.call('DEL', KEYS[9])
if #args.bot_turns > 0 then
  redis.call('HSET', KEYS[9], unpack(args.bot_turns))
end
if args.finished then
  redis.call('EXPIRE', KEYS[1], args.retention_s)
  redis.call('EXPIRE', KEYS[2], args.retention_s)
  redis.call('EXPIRE', KEYS[3], args.retention_s)
  redis.call('ZREM', KEYS[6], args.match_id)
  redis.call('ZADD', KEYS[7], args.created_ms, args.match_id)
  redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', '(' .. args.finished_min_ms)
  redis.call('XADD', KEYS[8], 'MAXLEN', '~', args.feed_maxlen, '*', 'pb', args.notice)
  redis.call('XTRIM', KEYS[8], 'MINID', '~', args.feed_min_id)
end
return {'ok'}
