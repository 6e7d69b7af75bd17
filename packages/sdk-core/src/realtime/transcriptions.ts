import type { SDKSessionTranscription } from '../contract/sdk.js';

function timeOf(transcription: SDKSessionTranscription): number {
  const time = Date.parse(transcription.created_at);
  return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time;
}

function sameUtterance(a: SDKSessionTranscription, b: SDKSessionTranscription): boolean {
  return a.id === b.id && a.agent === b.agent;
}

/**
 * Upserts an utterance by (`id`, `agent`) into a list ordered by `created_at` (arrival order among equal
 * times; unparseable times sort last); a final line is kept over a later non-final copy. Returns a new array (the
 * same one when nothing changed); the input is never changed.
 *
 * @example
 * transcriptions = upsertTranscription(transcriptions, packet.payload);
 */
export function upsertTranscription(list: readonly SDKSessionTranscription[], transcription: SDKSessionTranscription): readonly SDKSessionTranscription[] {
  const existing = list.findIndex((candidate) => sameUtterance(candidate, transcription));
  // A final line is never taken back by an earlier version arriving late (a replay after a resume).
  if (existing !== -1 && list[existing]!.final && !transcription.final) return list;
  const rest = existing === -1 ? list : [...list.slice(0, existing), ...list.slice(existing + 1)];
  if (existing !== -1 && list[existing]!.created_at === transcription.created_at) {
    // The usual case (the utterance grew): same place.
    const next = [...list];
    next[existing] = transcription;
    return next;
  }
  const time = timeOf(transcription);
  let position = rest.length;
  while (position > 0 && timeOf(rest[position - 1]!) > time) position -= 1;
  return [...rest.slice(0, position), transcription, ...rest.slice(position)];
}
