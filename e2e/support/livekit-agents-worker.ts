import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const workerFolder = fileURLToPath(new URL('../../examples/livekit-agents-worker/', import.meta.url));

/** A running example worker: its process and what it printed. */
export interface ExampleWorker {
  process: ChildProcess;
  log: () => string;
}

/**
 * The example LiveKit Agents worker (`examples/livekit-agents-worker`, `@livekit/agents` only), started as its README
 * says against `platformUrl`, its health check on a free port, in its own process group (it forks job processes).
 *
 * @example
 * const worker = startExampleWorker(server.url!, { key, secret }); ... await stopExampleWorker(worker.process);
 */
export function startExampleWorker(platformUrl: string, credentials: { key: string; secret: string }): ExampleWorker {
  const child = spawn(process.execPath, ['--import', 'tsx', 'agent.ts', 'start'], {
    cwd: workerFolder,
    env: {
      ...process.env,
      LIVEKIT_URL: platformUrl.replace(/^http/, 'ws'),
      LIVEKIT_API_KEY: credentials.key,
      LIVEKIT_API_SECRET: credentials.secret,
      PALAVER_WORKER_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  return { process: child, log: () => log };
}

/** Stops the worker and its job processes (SIGTERM, SIGKILL after 5 s). */
export async function stopExampleWorker(child: ChildProcess): Promise<void> {
  if (!child.pid || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
