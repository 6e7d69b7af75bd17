import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Polls `probe` every 50 ms until it gives a value (not undefined or false); fails naming `what` after `timeoutMs`. */
export async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The example worker running in its own process group. */
export interface WorkerProcess {
  /** Everything it printed so far. */
  log(): string;
  /** Ends it and the job processes it forked. */
  stop(): Promise<void>;
}

/**
 * Starts `agent.ts` as a worker of the LiveKit server at `mediaUrl` (a Palaver's embedded endpoint) and waits until
 * `registered()` says it registered.
 *
 * @example
 * const worker = await startWorker(mediaUrl, { key, secret }, () => server.services.media.endpoint!.agentWorkers.hasWorker(AGENT_NAME));
 */
export async function startWorker(mediaUrl: string, credentials: { key: string; secret: string }, registered: () => boolean): Promise<WorkerProcess> {
  let log = '';
  const worker: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'agent.ts', 'start'], {
    cwd: here,
    // PALAVER_WORKER_PORT=0: the health check on a free port, so a worker already running here (8081) does not matter.
    env: {
      ...process.env,
      LIVEKIT_URL: mediaUrl,
      LIVEKIT_API_KEY: credentials.key,
      LIVEKIT_API_SECRET: credentials.secret,
      NODE_ENV: 'test',
      PALAVER_WORKER_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: the worker forks job processes, and all of them go at the end.
    detached: true,
  });
  worker.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  worker.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const stop = async () => {
    if (!worker.pid || worker.exitCode !== null) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    process.kill(-worker.pid, 'SIGTERM');
    const timer = setTimeout(() => process.kill(-worker.pid!, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await eventually(registered, 'the worker to register', 30_000);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message} (its log: ${log})`);
  }
  return { log: () => log, stop };
}
