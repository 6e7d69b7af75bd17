/** Percentile (0..100) of a sample, nearest-rank. */
export function percentile(values: readonly number[], rank: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((rank / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Formats a number with a fixed count of decimals. */
export function fixed(value: number, decimals = 1): string {
  return value.toFixed(decimals);
}
