/**
 * Measured mapping between eSpeak-NG (en-us) parameters and what comes out, from
 * design/speech-stack.md: pitch parameter -> median F0, and words-per-minute -> syllables per second.
 * Female-range voices use the `+f3` variant, which starts where the default voice's range ends.
 * All points were measured with the pitch range at its default (50): the range also moves the median
 * F0 (range 20 lowers it ~15 %), so cloned voices keep range 50.
 */

type Curve = ReadonlyArray<readonly [parameter: number, value: number]>;

/** Pitch parameter (0-99) -> median F0 in Hz, default variant. */
export const ESPEAK_PITCH_CURVE: Curve = [
  [10, 74],
  [30, 86],
  [50, 105],
  [70, 126],
  [90, 155],
];

/**
 * Pitch parameter -> median F0 in Hz with the `+f3` variant. The note's 10/50/90 points, refined at
 * the low end with our YIN tracker (the curve flattens below 25: 0 -> 150, 10 -> 164, 25 -> 175).
 */
export const ESPEAK_F3_PITCH_CURVE: Curve = [
  [0, 150],
  [10, 164],
  [25, 175],
  [50, 216],
  [90, 312],
];

/** Rate in words per minute -> syllables per second. */
export const ESPEAK_RATE_CURVE: Curve = [
  [120, 4.17],
  [180, 5.79],
  [240, 7.11],
];

/** Above this median F0 the `+f3` variant reproduces a voice better than the default one. */
export const F3_VARIANT_THRESHOLD_HZ = 165;

/**
 * Piecewise-linear lookup, extrapolating along the end segments.
 *
 * @example
 * valueAt(ESPEAK_PITCH_CURVE, 40); // 95.5 Hz
 */
export function valueAt(curve: Curve, parameter: number): number {
  return interpolate(
    curve.map(([x, y]) => [x, y] as const),
    parameter,
  );
}

/**
 * Inverse lookup: the parameter that produces `value`.
 *
 * @example
 * parameterFor(ESPEAK_PITCH_CURVE, 105); // 50
 */
export function parameterFor(curve: Curve, value: number): number {
  return interpolate(
    curve.map(([x, y]) => [y, x] as const),
    value,
  );
}

function interpolate(points: ReadonlyArray<readonly [number, number]>, x: number): number {
  let index = 0;
  while (index < points.length - 2 && x > points[index + 1]![0]) index++;
  const [x0, y0] = points[index]!;
  const [x1, y1] = points[index + 1]!;
  return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
}
