import type { RuntimeLogItem } from '@palaver/sdk-core/realtime';

/** The run's newest log entries (the `logs` events of the runtime API). */
export function RunLogs({ logs }: { logs: readonly RuntimeLogItem[] }) {
  if (logs.length === 0) return null;
  return (
    <details className="logs">
      <summary>Run logs ({logs.length})</summary>
      <ol data-testid="logs">
        {logs.slice(-20).map((item, index) => (
          <li key={index} className={item.level}>
            {item.node ? <code>{item.node}</code> : null} {item.message}
          </li>
        ))}
      </ol>
    </details>
  );
}
