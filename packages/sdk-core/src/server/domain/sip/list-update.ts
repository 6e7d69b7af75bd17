import type { ListUpdate, Pagination } from '@livekit/protocol';

/** A list after LiveKit's `ListUpdate`: `clear` empties it, `set` replaces it, then `remove` and `add` apply. */
export function applyListUpdate(list: readonly string[], update: ListUpdate | undefined): string[] {
  if (!update) return [...list];
  let next = update.clear ? [] : update.set.length > 0 ? [...update.set] : [...list];
  next = next.filter((item) => !update.remove.includes(item));
  for (const item of update.add) if (!next.includes(item)) next.push(item);
  return next;
}

/**
 * One page of a list as LiveKit pages it: with `page`, items in id order after `afterId`, at most `limit` of them
 * (0: all); without it, every item in creation order.
 */
export function pageOf<T>(items: T[], idOf: (item: T) => string, page: Pagination | undefined): T[] {
  if (!page) return items;
  const after = items.filter((item) => idOf(item) > page.afterId).sort((a, b) => (idOf(a) < idOf(b) ? -1 : 1));
  return page.limit > 0 ? after.slice(0, page.limit) : after;
}
