import type { ListUpdate } from '@livekit/protocol';

/** A list after LiveKit's `ListUpdate`: `clear` empties it, `set` replaces it, then `remove` and `add` apply. */
export function applyListUpdate(list: readonly string[], update: ListUpdate | undefined): string[] {
  if (!update) return [...list];
  let next = update.clear ? [] : update.set.length > 0 ? [...update.set] : [...list];
  next = next.filter((item) => !update.remove.includes(item));
  for (const item of update.add) if (!next.includes(item)) next.push(item);
  return next;
}
