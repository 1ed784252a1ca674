// Every event of the match, in the engine's words, oldest first: a scrollable log that follows the
// newest event unless the reader has scrolled up to read an older one.
import { useLayoutEffect, useRef } from "react";

// Pixels from the bottom within which the log counts as "at the newest event" (and keeps following it).
const FOLLOW_SLACK_PX = 24;

export function EventLog({ events }: { events: string[] }) {
  const box = useRef<HTMLOListElement>(null);
  const following = useRef(true);
  useLayoutEffect(() => {
    const list = box.current;
    if (list && following.current) list.scrollTop = list.scrollHeight;
  }, [events.length]);
  const onScroll = () => {
    const list = box.current;
    if (list) following.current = list.scrollHeight - list.scrollTop - list.clientHeight <= FOLLOW_SLACK_PX;
  };
  return (
    <section className="events" data-testid="events">
      <h3>
        Events <span className="small">({events.length})</span>
      </h3>
      <ol ref={box} data-testid="event-log" onScroll={onScroll}>
        {events.map((text, i) => (
          <li key={i}>{text}</li>
        ))}
      </ol>
    </section>
  );
}
