/**
 * Limits a value to a range, for engine settings that must stay within what the engine accepts.
 *
 * @example
 * clamp(5, 0.25, 4); // 4
 */
export function clamp(value: number, minimum: number, maximum: number): number {
  return Math.min(maximum, Math.max(minimum, value));
}
