import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures');

/**
 * Environment of a consumer's commands: this machine's install rules (no binary downloads), and nothing of the
 * workspace (pnpm's `NODE_PATH` would let CommonJS requires find the workspace's packages).
 */
export const consumerEnvironment: NodeJS.ProcessEnv = (() => {
  const { NODE_PATH: _workspacePath, ...environment } = process.env;
  return { ...environment, ONNXRUNTIME_NODE_INSTALL: 'skip', npm_config_update_notifier: 'false' };
})();

/**
 * An npm project outside the workspace, as a user would make one: a copy of a fixture folder and a package.json
 * whose dependencies include the packed tarballs (`overrides` make every dependent use them too), then `npm install`.
 */
export function npmProject(options: { fixture?: string; dependencies: Record<string, string>; overrides: Record<string, string> }): string {
  const directory = mkdtempSync(join(tmpdir(), 'palaver-consumer-'));
  if (options.fixture) cpSync(join(fixtures, options.fixture), directory, { recursive: true });
  const manifest = { name: 'palaver-consumer', private: true, version: '1.0.0', dependencies: options.dependencies, overrides: options.overrides };
  writeFileSync(join(directory, 'package.json'), JSON.stringify(manifest, null, 2));
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], directory, 600_000);
  return directory;
}

/** Runs a command to completion and returns its stdout; throws with its output when it fails. */
export function run(command: string, args: string[], cwd: string, timeout = 120_000): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout, env: consumerEnvironment });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Starts a long-running command and resolves with its first stdout line that matches `ready`. */
export function start(
  command: string,
  args: string[],
  cwd: string,
  ready: RegExp,
  timeoutMs = 60_000,
): Promise<{ child: ChildProcess; line: string; output: () => string }> {
  const child = spawn(command, args, { cwd, env: consumerEnvironment, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} ${args.join(' ')} was not ready within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => ready.test(candidate));
      if (!line) return;
      clearTimeout(timer);
      resolvePromise({ child, line, output: () => output });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited (${code}) before it was ready:\n${output}`));
    });
  });
}

/** Stops a started command and waits for it to exit. */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolvePromise) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolvePromise();
    child.once('exit', () => resolvePromise());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}
