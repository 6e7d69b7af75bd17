import type { ClientPadValue } from '../../contract/graph/pad-values.js';
import type { RuntimeLogItem } from '../../contract/graph/runtime-api.js';
import type { SDKConnectionState } from '../../contract/sdk.js';
import type { RealtimeEnd, RealtimeState, RealtimeStatus } from '../session-state.js';

/** The key of a pad in {@link AppRunState.values}: `<node id>.<pad id>`. */
export function padKey(node: string, pad: string): string {
  return `${node}.${pad}`;
}

/**
 * An app run's state as the browser sees it: an immutable snapshot, replaced on every change.
 *
 * @example
 * const state = run.getSnapshot();
 * if (state.connectionState === 'connected') show(state.values['llm.text']);
 */
export interface AppRunState {
  /** Where the connection is: `connecting` also while the run is being created (`starting`). */
  status: RealtimeStatus;
  connectionState: SDKConnectionState;
  /** True while `POST /v1/app/run` (or `run_from_graph`) is in flight. */
  starting: boolean;
  /** The run's id (from the create answer, or given with connection details). */
  runId: string | undefined;
  /** The room connection underneath: microphone, audio playback, client tool calls. */
  session: RealtimeState;
  /** The last value of every subscribed pad, by `<node>.<pad>` ({@link padKey}). */
  values: Readonly<Record<string, ClientPadValue>>;
  /** The run's log entries, oldest first (the newest `maxLogs`). */
  logs: readonly RuntimeLogItem[];
  /** The last failure: creating the run, the connection, a node's error, a refused subscription. */
  error: Error | undefined;
  /** Why the last run ended (undefined while connected or before the first). */
  ended: RealtimeEnd | undefined;
}

export function initialAppRunState(session: RealtimeState): AppRunState {
  return Object.freeze({
    status: session.status,
    connectionState: session.connectionState,
    starting: false,
    runId: undefined,
    session,
    values: Object.freeze({}),
    logs: Object.freeze([]),
    error: undefined,
    ended: undefined,
  });
}
