/**
 * Joins typed arrays of one kind end to end into a new array that `allocate` makes, for audio that is
 * produced in pieces (PCM chunks, encoded MP3 frames).
 *
 * @example
 * const bytes = joinArrays([new Uint8Array([1, 2]), new Uint8Array([3])], (length) => new Uint8Array(length)); // [1, 2, 3]
 */
export function joinArrays<T extends Int16Array | Uint8Array>(parts: readonly T[], allocate: (length: number) => T): T {
  let length = 0;
  for (const part of parts) length += part.length;
  const result = allocate(length);
  let offset = 0;
  for (const part of parts) {
    result.set(part, offset);
    offset += part.length;
  }
  return result;
}
