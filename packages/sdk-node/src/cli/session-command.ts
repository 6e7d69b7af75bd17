import { ConnectionError, createClient, type PalaverClient, type RealtimeSessionConfigCreate } from '@palaver/sdk-core';

export interface PlatformOptions {
  url?: string;
  apiKey?: string;
  human?: string;
}

export interface SessionStartOptions extends PlatformOptions {
  worker?: string;
  metadata?: string;
  llm?: string;
  timeLimit?: string;
  json?: boolean;
}

/** The LLM of a built-in agent's session when `--llm` is not given: the offline model every server has. */
const DEFAULT_LLM = 'builtin-offline';

function clientFor(options: PlatformOptions): PalaverClient {
  const apiKey = options.apiKey ?? process.env.PALAVER_API_KEY;
  if (!apiKey) throw new Error('An API key is required: pass --api-key or set PALAVER_API_KEY');
  const baseUrl = options.url ?? process.env.PALAVER_URL ?? 'http://127.0.0.1:8080';
  return createClient({ baseUrl, apiKey, maxRetries: 0, ...(options.human !== undefined ? { humanId: options.human } : {}) });
}

/** Runs a call to the platform; a refused connection says how to fix it, in one line. */
async function reaching<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (ConnectionError.isInstance(error)) throw new Error(`${error.message}; start it (pnpm start, or palaver serve) or pass --url / set PALAVER_URL`);
    throw error;
  }
}

/**
 * The start request's configuration: with `--worker`, only `general.agent` (a worker-run session needs no
 * `input`, `output` or `generative`, a Palaver extension); otherwise the built-in agent on `--llm`.
 */
export function sessionConfig(options: SessionStartOptions): RealtimeSessionConfigCreate {
  const timeLimit = options.timeLimit === undefined ? undefined : Number(options.timeLimit);
  if (timeLimit !== undefined && !(Number.isInteger(timeLimit) && timeLimit > 0))
    throw new Error(`--time-limit ${options.timeLimit} is not a whole number of seconds`);
  const general = timeLimit !== undefined ? { time_limit_s: timeLimit } : {};
  if (options.worker !== undefined) {
    const agent = { type: 'livekit_worker' as const, agent_name: options.worker, ...(options.metadata !== undefined ? { metadata: options.metadata } : {}) };
    return { general: { ...general, agent } };
  }
  if (options.metadata !== undefined) throw new Error("--metadata is handed to a worker's job: use it with --worker");
  return { general, input: {}, output: {}, generative: { llm: options.llm ?? DEFAULT_LLM } };
}

/**
 * `palaver session start [--worker <agent name>]`: starts a realtime session through a running platform and
 * prints its id and the connection details a LiveKit client joins with (`--json`: the whole answer).
 */
export async function sessionStartCommand(options: SessionStartOptions): Promise<void> {
  const config = sessionConfig(options);
  const client = clientFor(options);
  const started = await reaching(() => client.realtime.start({ config }));
  if (options.json) {
    process.stdout.write(`${JSON.stringify(started, null, 2)}\n`);
    return;
  }
  const { session, connection_details } = started;
  const agent = session.config.general.agent;
  process.stdout.write(
    [
      `session: ${session.id}`,
      `agent:   ${agent?.type === 'livekit_worker' ? `LiveKit Agents worker '${agent.agent_name}'` : 'built-in'} (${session.state})`,
      `url:     ${connection_details.url}`,
      `token:   ${connection_details.token}`,
      `Join the room with any LiveKit client (url, token); end it with: palaver session end ${session.id}`,
    ].join('\n') + '\n',
  );
}

/** `palaver session end <id>`: ends a session (its agent leaves the room). */
export async function sessionEndCommand(id: string, options: PlatformOptions): Promise<void> {
  const client = clientFor(options);
  const ended = await reaching(() => client.realtime.end(id));
  process.stdout.write(`session: ${ended.id} ${ended.state}\n`);
}
