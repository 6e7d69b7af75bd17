import { randomBytes } from 'node:crypto';

/** An id of the Realtime API's kind: `item_…`, `resp_…`, `event_…`, `sess_…`, `call_…` (20 random characters). */
export function realtimeId(prefix: 'item' | 'resp' | 'event' | 'sess' | 'call'): string {
  return `${prefix}_${randomBytes(15).toString('base64url')}`;
}
