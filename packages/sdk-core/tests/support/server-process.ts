import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const childScript = fileURLToPath(new URL('./server-child.ts', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  apiKey: string;
  /** A media join token for room `fuzz-room`. */
  joinToken: string;
  /** Everything the process wrote to stderr (an unhandled error's stack lands here). */
  stderr(): string;
  /** Whether the process is still running. */
  alive(): boolean;
  /** Sends `signal` (default SIGKILL) and resolves with the exit code once the process ended. */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the platform in a child process (SQLite in memory unless `config` says otherwise). */
export function startServerProcess(config: Record<string, unknown> = {}, options: { databaseSchema?: string } = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, JSON.stringify({ config, ...options })], { stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server child did not start within 30 s: ${errors}`)), 30_000);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      const started = JSON.parse(line) as { url: string; apiKey: string; joinToken: string };
      resolve({
        child,
        ...started,
        stderr: () => errors,
        alive,
        kill: (signal = 'SIGKILL') =>
          new Promise<number | null>((done) => {
            if (!alive()) return done(child.exitCode);
            child.once('exit', (code) => done(code));
            child.kill(signal);
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`server child exited early (${code}): ${errors}`)));
  });
}
