import { useRef, useSyncExternalStore } from 'react';

/** Whether two selections are the same: `Object.is`, or plain objects/arrays whose entries are each `Object.is`. */
export function shallowEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const proto: unknown = Object.getPrototypeOf(a);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && Object.is(left[key], right[key]));
}

interface Memo<S, T> {
  snapshot: S;
  selected: T;
}

/**
 * A store's snapshot passed through `select`, re-rendering only when the selection changes (`isEqual`, shallow by
 * default): a selection equal to the last one is the last one, so React bails out. The selector may be a new
 * function each render; it runs again only when the snapshot or the selector changed.
 */
export function useSelectedSnapshot<S, T>(
  subscribe: (listener: () => void) => () => void,
  getSnapshot: () => S,
  select: (snapshot: S) => T,
  isEqual: (a: T, b: T) => boolean = shallowEqual,
): T {
  const memo = useRef<Memo<S, T> | undefined>(undefined);
  const selectorOfMemo = useRef(select);
  const read = (): T => {
    const snapshot = getSnapshot();
    const last = memo.current;
    if (last && Object.is(last.snapshot, snapshot) && selectorOfMemo.current === select) return last.selected;
    const selected = select(snapshot);
    const kept = last && isEqual(last.selected, selected) ? last.selected : selected;
    memo.current = { snapshot, selected: kept };
    selectorOfMemo.current = select;
    return kept;
  };
  return useSyncExternalStore(subscribe, read, read);
}
