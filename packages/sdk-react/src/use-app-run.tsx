import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import {
  createAppRun,
  type AppRun,
  type AppRunConnectOptions,
  type AppRunOptions,
  type AppRunState,
  type AudioSource,
  type ClientPadValue,
  type RealtimeEnd,
  type RealtimeStatus,
  type RuntimeLogItem,
  type SDKConnectionState,
} from '@palaver/sdk-core/realtime';
import { useOwnedConnection } from './use-owned-connection.js';
import { useClientTools } from './use-client-tool.js';
import { useSelectedSnapshot } from './use-selected-snapshot.js';

export interface UseAppRunOptions extends AppRunOptions {
  /**
   * A run connector you created yourself (the other options but `tools` are then ignored). Without it the
   * hook creates one on first render (later option changes are ignored) and leaves the room on unmount.
   */
  run?: AppRun;
  /** Connect on mount with these options, and leave on unmount. */
  connectOnMount?: AppRunConnectOptions;
  /** With a selector: whether two selections are the same (default: shallow, each key or item by `Object.is`). */
  isEqual?: (a: unknown, b: unknown) => boolean;
}

export interface AppRunControls {
  /** The framework-free connector behind the hook (events, advanced use); give it to `<AppRunProvider>`. */
  run: AppRun;
  state: AppRunState;
  status: RealtimeStatus;
  connectionState: SDKConnectionState;
  runId: string | undefined;
  /** The run's log entries, oldest first. */
  logs: readonly RuntimeLogItem[];
  error: Error | undefined;
  /** Why the last run ended (undefined while connected or before the first). */
  ended: RealtimeEnd | undefined;
  microphoneEnabled: boolean;
  /** False: show a button that calls `startAudio` (browsers that need a user gesture). */
  canPlayAudio: boolean;
  /** Connects; never rejects (a failure is in `error` and `ended`). */
  connect: (options: AppRunConnectOptions) => Promise<void>;
  disconnect: () => Promise<void>;
  /** Sets a property pad or fires a stateless one; rejects when the run refuses it. */
  pushValue: (node: string, pad: string, value?: unknown) => Promise<void>;
  getValue: (node: string, pad: string) => Promise<ClientPadValue>;
  /** Never rejects (a refused microphone is in `error`). */
  setMicrophoneEnabled: (enabled: boolean) => Promise<void>;
  startAudio: () => Promise<void>;
  getAudioLevels: () => Record<AudioSource, number>;
}

const ignore = () => {};

type AppRunFunctions = Pick<
  AppRunControls,
  'run' | 'connect' | 'disconnect' | 'pushValue' | 'getValue' | 'setMicrophoneEnabled' | 'startAudio' | 'getAudioLevels'
>;

/** The hook's functions: made once per run, so selecting them never re-renders. */
function functionsOf(run: AppRun): AppRunFunctions {
  return {
    run,
    connect: (connectOptions: AppRunConnectOptions) => run.connect(connectOptions).catch(ignore),
    disconnect: () => run.disconnect(),
    pushValue: (node: string, pad: string, value?: unknown) => run.pushValue(node, pad, value),
    getValue: (node: string, pad: string) => run.getValue(node, pad),
    setMicrophoneEnabled: (enabled: boolean) => run.setMicrophoneEnabled(enabled).catch(ignore),
    startAudio: () => run.startAudio(),
    getAudioLevels: () => run.getAudioLevels(),
  };
}

function appRunOf(state: AppRunState, functions: AppRunFunctions): AppRunControls {
  return {
    ...functions,
    state,
    status: state.status,
    connectionState: state.connectionState,
    runId: state.runId,
    logs: state.logs,
    error: state.error,
    ended: state.ended,
    microphoneEnabled: state.session.microphone.enabled,
    canPlayAudio: state.session.canPlayAudio,
  };
}

/**
 * An app run: creates it with a usage token (or joins one your backend created), with its state, logs and
 * controls. Without a selector it re-renders on every change; with one (`useAppRun((run) => run.logs.length)`) only
 * when the selection changes (shallowly compared). Inside a `PalaverProvider`, runs are created on the provider
 * client's base URL. Wrap the components that read pads in `<AppRunProvider run={appRun.run}>`; below it,
 * `useAppRun()` and `useAppRun(selector)` read that run (without a `run` option).
 *
 * @example
 * function Assistant({ usageToken }) {
 *   const appRun = useAppRun({ publishNode: 'publish' });
 *   if (appRun.connectionState === 'not_connected')
 *     return <button onClick={() => appRun.connect({ token: usageToken, app: 'app_123' })}>Start</button>;
 *   return <AppRunProvider run={appRun.run}><Conversation /></AppRunProvider>;
 * }
 * function RunId() {
 *   return <code>{useAppRun((run) => run.runId)}</code>;
 * }
 */
export function useAppRun(options?: UseAppRunOptions): AppRunControls;
export function useAppRun<T>(select: (run: AppRunControls) => T, options?: UseAppRunOptions): T;
export function useAppRun<T>(first?: UseAppRunOptions | ((run: AppRunControls) => T), second?: UseAppRunOptions): AppRunControls | T {
  const select = typeof first === 'function' ? first : undefined;
  const options = (typeof first === 'function' ? second : first) ?? {};
  const shared = useContext(RunContext);
  const run = useOwnedConnection({
    given: options.run ?? shared ?? undefined,
    options,
    connectOnMount: options.connectOnMount,
    create: (transport) => {
      const { run: _run, connectOnMount: _connect, tools: _tools, isEqual: _isEqual, ...runOptions } = options;
      return createAppRun({ ...runOptions, ...transport });
    },
    removedMessage: 'useAppRun: the `run` option (or the AppRunProvider above) cannot be removed once given',
  });
  useClientTools(run.session, options.tools);
  const functions = useMemo(() => functionsOf(run), [run]);
  const pick = select ?? ((controls: AppRunControls) => controls as T | AppRunControls);
  return useSelectedSnapshot(run.subscribe, run.getSnapshot, (state: AppRunState) => pick(appRunOf(state, functions)), select ? options.isEqual : Object.is);
}

const RunContext = createContext<AppRun | null>(null);

/**
 * Makes a run available to `usePad` below it.
 *
 * @example
 * <AppRunProvider run={appRun.run}><Conversation /></AppRunProvider>
 */
export function AppRunProvider({ run, children }: { run: AppRun; children?: ReactNode }) {
  return <RunContext.Provider value={run}>{children}</RunContext.Provider>;
}

export interface PadState {
  /** The pad's last value, typed (`{type: 'string', value: 'hi'}`); undefined before the first. */
  value: ClientPadValue | undefined;
  /** Sets the pad (a property pad) or fires it (a stateless one); rejects when the run refuses it. */
  push(value?: unknown): Promise<void>;
}

/**
 * One pad of the run: subscribed while mounted (and across reconnections), re-rendering on each value.
 * The run comes from the nearest `<AppRunProvider>`, or as the third argument.
 *
 * @example
 * const context = usePad('context', 'source');          // the conversation, as a list of context messages
 * const prompt = usePad('system_prompt', 'content');
 * <button onClick={() => prompt.push('Answer like a pirate.')}>Pirate</button>
 */
export function usePad(node: string, pad: string, run?: AppRun): PadState {
  const fromContext = useContext(RunContext);
  const target = run ?? fromContext;
  if (!target) throw new Error('usePad needs an <AppRunProvider> above it, or the run as its third argument');
  useEffect(() => target.subscribePad(node, pad), [target, node, pad]);
  const key = `${node}.${pad}`;
  const read = useCallback(() => target.getSnapshot().values[key], [target, key]);
  const value = useSyncExternalStore(target.subscribe, read, read);
  const push = useCallback((next?: unknown) => target.pushValue(node, pad, next), [target, node, pad]);
  return { value, push };
}
