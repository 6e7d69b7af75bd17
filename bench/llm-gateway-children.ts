// The child processes of the gateway benches (llm-gateway.bench.ts, profiles/gateway-cpu.ts): each runs
// llm-gateway-child.ts in one role (upstream, platform, proxy, openai-proxy) and prints one JSON line once ready.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const childScript = join(dirname(fileURLToPath(import.meta.url)), 'llm-gateway-child.ts');
const READY_TIMEOUT_MS = 30_000;

export interface StartedChild<T> {
  /** What the child printed once ready (its URLs, the platform's key and LLM). */
  info: T;
  pid: number;
}

/**
 * Starts and stops the children of one bench run.
 *
 * @example
 * const children = new GatewayChildren();
 * const { info: upstream } = await children.start<{ chatUrl: string }>(['upstream']);
 * children.stopAll();
 */
export class GatewayChildren {
  private readonly children: ChildProcess[] = [];

  /**
   * Starts a child in role `args[0]` with `nodeFlags` (after tsx's import, so a flag may import a TypeScript file:
   * `--import ./profiles/heap-sampler.ts`; `--cpu-prof` and the like work there too) and resolves with its ready line.
   * Flags such as --trace-deopt print to stdout too: the ready line is the first that starts with '{', the rest goes
   * to stderr (read to the end, so the child never writes into a closed pipe). A child not ready in 30 s is killed.
   */
  start<T>(args: string[], nodeFlags: string[] = []): Promise<StartedChild<T>> {
    const child = spawn(process.execPath, ['--import', 'tsx', ...nodeFlags, childScript, ...args], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, PALAVER_LOG_LEVEL: 'silent' },
    });
    this.children.push(child);
    return new Promise((resolve, reject) => {
      let ready = false;
      const timer = setTimeout(() => child.kill(), READY_TIMEOUT_MS);
      const lines = createInterface({ input: child.stdout });
      lines.on('line', (line) => {
        if (!ready && line.startsWith('{')) {
          ready = true;
          clearTimeout(timer);
          resolve({ info: JSON.parse(line) as T, pid: child.pid! });
        } else process.stderr.write(`${line}\n`);
      });
      lines.on('close', () => {
        clearTimeout(timer);
        reject(new Error(`child ${args[0]} exited before it was ready`));
      });
    });
  }

  /** Ends every child (each exits when its stdin closes). */
  stopAll(): void {
    for (const child of this.children) child.stdin!.end();
  }
}
