import { readdirSync, readFileSync } from 'node:fs';

/** CPU time (clock ticks of 10 ms) each thread of a process has used, by `name#tid` (Linux, from /proc). */
export function threadTicks(pid: number): Map<string, number> {
  const result = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      result.set(`${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}#${task}`, Number(fields[11]) + Number(fields[12]));
    } catch {
      // The thread ended.
    }
  }
  return result;
}

/** Microseconds of CPU per unit of work between two {@link threadTicks} readings, the busiest thread first. */
export function cpuPerUnit(before: Map<string, number>, after: Map<string, number>, units: number): Array<readonly [thread: string, micros: number]> {
  return [...after]
    .map(([name, ticks]) => [name, ((ticks - (before.get(name) ?? 0)) * 10_000) / units] as const)
    .filter(([, micros]) => micros > 0)
    .sort((a, b) => b[1] - a[1]);
}
