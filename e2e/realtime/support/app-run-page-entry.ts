// Bundled with esbuild into the test page: drives the app run connector (@palaver/sdk-core/realtime's AppRun,
// from source, with its livekit-client) from the tests.
import { createAppRun, type AppRun, type AppRunConnectOptions, type AppRunState } from '@palaver/sdk-core/realtime';
import { measureAgentTone } from '../../support/page-audio.js';

const recorded = {
  statuses: [] as string[],
  values: [] as Array<{ node: string; pad: string; value: unknown }>,
  logs: [] as Array<{ level: string; node: string | null; message: string }>,
  errors: [] as Array<{ name: string; message: string }>,
  ended: [] as string[],
  /** Calls of the `client_app` tool `show_banner` this page answered. */
  toolCalls: [] as Array<{ id: string; args: Record<string, unknown> }>,
};
let current: AppRun | undefined;
const subscriptions = new Map<string, () => void>();

function run(): AppRun {
  if (!current) throw new Error('no run');
  return current;
}

const describeError = (error: Error) => ({ name: error.name, message: error.message });

function plain(state: AppRunState) {
  return {
    status: state.status,
    connectionState: state.connectionState,
    runId: state.runId ?? null,
    values: JSON.parse(JSON.stringify(state.values)) as Record<string, unknown>,
    logs: state.logs.length,
    microphone: { ...state.session.microphone },
    agentAudio: state.session.agentAudio,
    error: state.error ? describeError(state.error) : null,
    ended: state.ended?.reason ?? null,
  };
}

/** Settles a promise as plain JSON: `{ok, value}` or `{ok: false, error}`. */
async function settle<T>(promise: Promise<T>) {
  try {
    return { ok: true as const, value: JSON.parse(JSON.stringify((await promise) ?? null)) as unknown };
  } catch (error) {
    return { ok: false as const, error: describeError(error as Error) };
  }
}

const api = {
  async connect(baseUrl: string, connectOptions: AppRunConnectOptions, options: { publishNode?: string; microphone?: boolean } = {}) {
    const created = createAppRun({ baseUrl, microphone: options.microphone ?? true, ...(options.publishNode ? { publishNode: options.publishNode } : {}) });
    current = created;
    created.on('statusChanged', (status) => recorded.statuses.push(status));
    created.on('value', (node, pad, value) => recorded.values.push({ node, pad, value }));
    created.on('logs', (items) => recorded.logs.push(...items.map((item) => ({ level: item.level, node: item.node ?? null, message: item.message }))));
    created.on('error', (error) => recorded.errors.push(describeError(error)));
    created.on('ended', (end) => recorded.ended.push(end.reason));
    created.onToolCall('show_banner', (args, { call }) => {
      recorded.toolCalls.push({ id: call.id, args });
      return { shown: true, banner: 'Welcome aboard' };
    });
    const connected = await settle(created.connect(connectOptions));
    return { ...connected, snapshot: plain(created.getSnapshot()) };
  },
  snapshot: () => plain(run().getSnapshot()),
  recorded: () => JSON.parse(JSON.stringify(recorded)) as typeof recorded,
  subscribe(node: string, pad: string) {
    subscriptions.set(`${node}.${pad}`, run().subscribePad(node, pad));
  },
  unsubscribe(node: string, pad: string) {
    subscriptions.get(`${node}.${pad}`)?.();
    subscriptions.delete(`${node}.${pad}`);
  },
  push: (node: string, pad: string, value?: unknown) => settle(run().pushValue(node, pad, value)),
  get: (node: string, pad: string) => settle(run().getValue(node, pad)),
  list: (node: string, pad: string) => settle(run().getListItems(node, pad)),
  measureAgentTone,
  /** The connector's level meter of what the run plays (max over `durationMs`). */
  async agentLevel(durationMs: number): Promise<number> {
    let max = 0;
    const end = performance.now() + durationMs;
    while (performance.now() < end) {
      max = Math.max(max, run().getAudioLevels().agent);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return max;
  },
  async disconnect() {
    await run().disconnect();
    return plain(run().getSnapshot());
  },
};

export type AppRunPageApi = typeof api;
(window as unknown as { appRun: AppRunPageApi }).appRun = api;
