/**
 * Dragging a table row by its handle with the pointer (mouse, pen or touch), on pointer events rather than
 * the HTML drag-and-drop API, which touch screens lack. The row under the pointer is the drop target; the
 * page scrolls when the pointer nears its top or bottom edge. A click that ends a drag is swallowed.
 */
import { useLayoutEffect, useMemo, useRef, useState, type MouseEvent, type PointerEvent } from 'react';

const THRESHOLD_PX = 4;
const EDGE_PX = 48;

export interface DragState {
  from: number;
  over: number;
}

export interface DragHandlers {
  onPointerDown: (event: PointerEvent<HTMLElement>, index: number) => void;
  onPointerMove: (event: PointerEvent<HTMLElement>) => void;
  onPointerUp: (event: PointerEvent<HTMLElement>) => void;
  onPointerCancel: () => void;
  onClickCapture: (event: MouseEvent<HTMLElement>) => void;
}

function rowIndexAt(x: number, y: number): number | null {
  const row = document.elementFromPoint(x, y)?.closest<HTMLElement>('tr[data-index]');
  return row ? Number(row.dataset.index) : null;
}

export function useRowDrag(onDrop: (from: number, to: number) => void): [DragState | null, DragHandlers] {
  const [drag, setDrag] = useState<DragState | null>(null);
  const gesture = useRef<{ from: number; over: number; y: number; active: boolean } | null>(null);
  const swallowClick = useRef(false);
  const drop = useRef(onDrop);
  useLayoutEffect(() => {
    drop.current = onDrop;
  });

  const handlers = useMemo<DragHandlers>(
    () => ({
      onPointerDown(event, index) {
        if (event.button !== 0) return;
        event.currentTarget.setPointerCapture(event.pointerId);
        gesture.current = { from: index, over: index, y: event.clientY, active: false };
      },
      onPointerMove(event) {
        const current = gesture.current;
        if (!current) return;
        if (!current.active && Math.abs(event.clientY - current.y) < THRESHOLD_PX) return;
        current.active = true;
        event.preventDefault();
        if (event.clientY < EDGE_PX) window.scrollBy(0, -16);
        else if (event.clientY > window.innerHeight - EDGE_PX) window.scrollBy(0, 16);
        current.over = rowIndexAt(event.clientX, event.clientY) ?? current.over;
        setDrag({ from: current.from, over: current.over });
      },
      onPointerUp() {
        const current = gesture.current;
        gesture.current = null;
        setDrag(null);
        if (!current?.active) return;
        swallowClick.current = true;
        if (current.over !== current.from) drop.current(current.from, current.over);
      },
      onPointerCancel() {
        gesture.current = null;
        setDrag(null);
      },
      onClickCapture(event) {
        if (!swallowClick.current) return;
        swallowClick.current = false;
        event.preventDefault();
        event.stopPropagation();
      },
    }),
    [],
  );

  return [drag, handlers];
}
