/** A polyline with rounded corners, as an SVG path. */
export function rounded(points: ReadonlyArray<readonly [number, number]>, radius = 6): string {
  let d = `M${points[0]![0]},${points[0]![1]}`;
  for (let index = 1; index < points.length - 1; index += 1) {
    const [px, py] = points[index - 1]!;
    const [x, y] = points[index]!;
    const [nx, ny] = points[index + 1]!;
    const r = Math.min(radius, Math.hypot(x - px, y - py) / 2, Math.hypot(nx - x, ny - y) / 2);
    const toward = (fromX: number, fromY: number, length: number) => {
      const distance = Math.hypot(fromX - x, fromY - y) || 1;
      return [x + ((fromX - x) / distance) * length, y + ((fromY - y) / distance) * length] as const;
    };
    const [ax, ay] = toward(px, py, r);
    const [bx, by] = toward(nx, ny, r);
    d += ` L${ax},${ay} Q${x},${y} ${bx},${by}`;
  }
  const [lx, ly] = points[points.length - 1]!;
  return `${d} L${lx},${ly}`;
}

/** Lanes beside the nodes for the links that skip layers or go back: overlapping spans get different lanes. */
export function assignLanes(spans: ReadonlyArray<{ key: number; low: number; high: number }>): Map<number, number> {
  const lanes: Array<Array<{ low: number; high: number }>> = [];
  const assigned = new Map<number, number>();
  for (const span of [...spans].sort((a, b) => a.high - a.low - (b.high - b.low) || a.low - b.low)) {
    let lane = lanes.findIndex((taken) => taken.every((other) => span.high < other.low || span.low > other.high));
    if (lane === -1) lane = lanes.push([]) - 1;
    lanes[lane]!.push(span);
    assigned.set(span.key, lane);
  }
  return assigned;
}
