import type { RuntimeLogItem } from '@palaver/sdk-core/realtime';

/** The run's id and its newest log entries (the runtime API's `logs` events), folded away. */
export function RunDetails({ runId, logs }: { runId: string | undefined; logs: readonly RuntimeLogItem[] }) {
  if (!runId && logs.length === 0) return null;
  return (
    <details className="run-details">
      <summary>Run details{logs.length > 0 ? ` · ${logs.length} log ${logs.length === 1 ? 'entry' : 'entries'}` : ''}</summary>
      {runId && (
        <p>
          Run <code data-testid="run-id">{runId}</code>
        </p>
      )}
      {logs.length > 0 && (
        <ol data-testid="logs">
          {logs.slice(-20).map((item, index) => (
            <li key={index} className={item.level}>
              {item.node ? <code>{item.node}</code> : null} {item.message}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
