// Zoom and pan for every game's board (issue 30, item 8): one wrapper, not one per game. The board is
// laid out as it always is (the "fit" view: scale 1, no offset); zooming scales it with a CSS transform
// inside a window that keeps the board's own size, and dragging moves it. It never changes what a board
// draws or which of its elements are clickable: a click that ends a drag is swallowed, any other passes.
import { useCallback, useEffect, useRef, useState, type ComponentType, type PointerEvent, type ReactNode } from "react";

interface Transform {
  scale: number;
  x: number;
  y: number;
}

const FIT: Transform = { scale: 1, x: 0, y: 0 };
const MIN_SCALE = 0.5;
const MAX_SCALE = 4;
const STEP = 1.25;
// A pointer that moves less than this (px) before it is released is a click or a tap, not a drag.
const DRAG_THRESHOLD = 6;

/** The transform zoomed to `scale` (bounded) about the point (px, py) of the window, which stays where it is. */
function zoomAbout(t: Transform, scale: number, px: number, py: number): Transform {
  const next = Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
  const ratio = next / t.scale;
  return { scale: next, x: px - (px - t.x) * ratio, y: py - (py - t.y) * ratio };
}

/** The offset bounded so that at least a quarter of the window still shows the board. */
function bounded(t: Transform, width: number, height: number): Transform {
  const clamp = (v: number, size: number) => {
    const slack = size * (1 - t.scale);
    const margin = size / 4;
    return Math.min(Math.max(0, slack) + margin, Math.max(Math.min(0, slack) - margin, v));
  };
  return { scale: t.scale, x: clamp(t.x, width), y: clamp(t.y, height) };
}

const atFit = (t: Transform) => t.scale === 1 && t.x === 0 && t.y === 0;

interface Drag {
  startX: number;
  startY: number;
  from: Transform;
  moved: boolean;
}

/** The board inside a zoomable, draggable window with −, + and "fit" buttons (ctrl+wheel and pinch zoom too). */
export function ZoomPan({ children }: { children: ReactNode }) {
  const [t, setT] = useState<Transform>(FIT);
  const windowRef = useRef<HTMLDivElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const drag = useRef<Drag | null>(null);
  const pinch = useRef<{ distance: number; from: Transform } | null>(null);
  const swallowClick = useRef(false);

  const size = () => {
    const el = windowRef.current;
    return el ? { width: el.clientWidth, height: el.clientHeight } : { width: 1, height: 1 };
  };
  const apply = useCallback((next: (old: Transform) => Transform) => {
    setT((old) => {
      const { width, height } = size();
      return bounded(next(old), width, height);
    });
  }, []);
  const zoomBy = (factor: number) => {
    const { width, height } = size();
    apply((old) => zoomAbout(old, old.scale * factor, width / 2, height / 2));
  };

  // ctrl+wheel (a trackpad's pinch arrives so) zooms about the pointer. A native listener: React's wheel
  // handler is passive and cannot keep the page from zooming or scrolling.
  useEffect(() => {
    const el = windowRef.current;
    if (!el) return;
    const wheel = (e: WheelEvent) => {
      if (!e.ctrlKey && !e.metaKey) return; // a plain wheel scrolls the page, as everywhere else
      e.preventDefault();
      const box = el.getBoundingClientRect();
      apply((old) => zoomAbout(old, old.scale * Math.exp(-e.deltaY / 300), e.clientX - box.left, e.clientY - box.top));
    };
    el.addEventListener("wheel", wheel, { passive: false });
    return () => el.removeEventListener("wheel", wheel);
  }, [apply]);

  const local = (e: PointerEvent) => {
    const box = windowRef.current!.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  };
  const down = (e: PointerEvent<HTMLDivElement>) => {
    swallowClick.current = false; // a drag that ended without a click leaves nothing to swallow
    pointers.current.set(e.pointerId, local(e));
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()];
      pinch.current = { distance: Math.hypot(a.x - b.x, a.y - b.y) || 1, from: t };
      drag.current = null;
    } else if (pointers.current.size === 1 && (!atFit(t) || e.pointerType === "mouse")) {
      drag.current = { startX: e.clientX, startY: e.clientY, from: t, moved: false };
    }
  };
  const move = (e: PointerEvent<HTMLDivElement>) => {
    if (!pointers.current.has(e.pointerId)) return;
    pointers.current.set(e.pointerId, local(e));
    if (pinch.current && pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()];
      const from = pinch.current.from;
      const ratio = Math.hypot(a.x - b.x, a.y - b.y) / pinch.current.distance;
      apply(() => zoomAbout(from, from.scale * ratio, (a.x + b.x) / 2, (a.y + b.y) / 2));
      return;
    }
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.startX;
    const dy = e.clientY - d.startY;
    if (!d.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    if (!d.moved) {
      d.moved = true;
      // Captured only once it is a drag: a capture from the start would send every click to the window.
      e.currentTarget.setPointerCapture(e.pointerId);
    }
    apply(() => ({ ...d.from, x: d.from.x + dx, y: d.from.y + dy }));
  };
  const up = (e: PointerEvent<HTMLDivElement>) => {
    pointers.current.delete(e.pointerId);
    if (pointers.current.size < 2) pinch.current = null;
    if (drag.current?.moved) swallowClick.current = true;
    drag.current = null;
  };

  const fit = atFit(t);
  return (
    <div className="zoom-pan">
      <div className="zoom-bar" role="toolbar" aria-label="Board zoom">
        <button type="button" data-testid="zoom-out" aria-label="Zoom out" onClick={() => zoomBy(1 / STEP)}>
          −
        </button>
        <span className="small" data-testid="zoom-level">
          {Math.round(t.scale * 100)}%
        </span>
        <button type="button" data-testid="zoom-in" aria-label="Zoom in" onClick={() => zoomBy(STEP)}>
          +
        </button>
        <button type="button" data-testid="zoom-fit" disabled={fit} onClick={() => setT(FIT)}>
          Fit
        </button>
        {!fit && <span className="small"> drag to move the board</span>}
      </div>
      <div
        ref={windowRef}
        className={`zoom-window ${fit ? "fit" : "zoomed"}`}
        data-testid="zoom-window"
        data-scale={t.scale.toFixed(3)}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
        onClickCapture={(e) => {
          if (!swallowClick.current) return;
          swallowClick.current = false; // the click that ends a drag: not a choice on the board
          e.stopPropagation();
          e.preventDefault();
        }}
      >
        <div
          className="zoom-content"
          data-testid="zoom-content"
          style={fit ? undefined : { transform: `translate(${t.x}px, ${t.y}px) scale(${t.scale})` }}
        >
          {children}
        </div>
      </div>
    </div>
  );
}

/** `Board` drawn inside ZoomPan: what games/index.ts gives the match page for every game's board. */
export function zoomable<P extends object>(Board: ComponentType<P>): ComponentType<P> {
  const Zoomable = (props: P) => (
    <ZoomPan>
      <Board {...props} />
    </ZoomPan>
  );
  Zoomable.displayName = `Zoomable(${Board.displayName ?? Board.name})`;
  return Zoomable;
}
