/** One entry of a run's log (the `logs` event of the runtime API). */
export interface RunLogEntry {
  message: string;
  level: 'debug' | 'info' | 'warning' | 'error';
  /** ISO time. */
  timestamp: string;
  node?: string | undefined;
  subgraph?: string | undefined;
  pad?: string | undefined;
}
