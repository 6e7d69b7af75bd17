import { createServer } from 'node:net';

/** The port `@livekit/agents` serves a production worker's health check on (`GET /`, `GET /worker`) by default. */
export const DEFAULT_HEALTH_CHECK_PORT = 8081;

/** Where the worker's health check listens. */
export interface HealthCheckAddress {
  host: string;
  port: number;
}

/**
 * The worker's health-check address: `PALAVER_WORKER_PORT` (default 8081; `0` picks a free port) and
 * `PALAVER_WORKER_HOST` (default 127.0.0.1; 0.0.0.0 for a container's probes). The port is tried before the worker
 * starts, so a taken one is one line naming the variable rather than a crash of the worker's HTTP server; `0` is
 * resolved here to a free port, because `@livekit/agents` reads a port of 0 as "the default" (8081 under `start`).
 *
 * @example
 * const { host, port } = await healthCheckAddress(); // { host: '127.0.0.1', port: 8081 }
 * cli.runApp(new ServerOptions({ agent, agentName, host, port }));
 */
export async function healthCheckAddress(environment: NodeJS.ProcessEnv = process.env): Promise<HealthCheckAddress> {
  const host = environment.PALAVER_WORKER_HOST?.trim() || '127.0.0.1';
  const raw = environment.PALAVER_WORKER_PORT?.trim();
  const asked = raw ? Number(raw) : DEFAULT_HEALTH_CHECK_PORT;
  if (!Number.isInteger(asked) || asked < 0 || asked > 65_535) {
    throw new Error(`PALAVER_WORKER_PORT=${raw} is not a port: use a whole number from 0 to 65535 (0 picks a free one)`);
  }
  return { host, port: await tryPort(host, asked) };
}

/** Binds `port` on `host` and lets it go again: the port the system gave (for 0), or a one-line error naming the variable. */
function tryPort(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'EADDRINUSE' ? 'is already in use' : error.code === 'EACCES' ? 'needs privileges' : `cannot be used (${error.code ?? error.message})`;
      reject(new Error(`port ${port} on ${host} (the worker's health check) ${why}: set PALAVER_WORKER_PORT to another port (0 picks a free one)`));
    });
    probe.listen(port, host, () => {
      const { port: bound } = probe.address() as { port: number };
      probe.close(() => resolve(bound));
    });
  });
}
