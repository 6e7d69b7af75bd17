// `pnpm start` and `pnpm palaver serve` under SIGTERM (sent to pnpm, as a process manager does) and Ctrl-C (SIGINT to
// the whole foreground process group, as a terminal does): the parent waits until the platform finished closing and
// exits with its status, and no process of the tree is left running.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@palaver/sdk-core';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '@palaver/sdk-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The process's parent and whether it still runs (a zombie, dead but not reaped, does not). */
function processState(pid: number): { parent: number; running: boolean } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { parent: Number(parent), running: state !== 'Z' && state !== 'X' };
  } catch {
    return undefined;
  }
}

/** Every descendant of `pid` running now. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    const child = Number(name);
    if (!Number.isInteger(child)) continue;
    const state = processState(child);
    if (!state?.running) continue;
    parents.set(state.parent, [...(parents.get(state.parent) ?? []), child]);
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const child of parents.get(parent) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

const running = (pids: readonly number[]) => pids.filter((pid) => processState(pid)?.running === true);

interface Started {
  child: ChildProcess;
  url: string;
  apiKey: string;
  output: () => string;
}

/** Runs `pnpm <args>` in a process group of its own (as a terminal's foreground job) until the platform listens. */
function startPnpm(args: string[]): Promise<Started> {
  const child = spawn('pnpm', args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: '0', PALAVER_DEMO_PORT: '0', PALAVER_APP_DEMO_PORT: '0', PALAVER_LOG_LEVEL: 'warn' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`pnpm ${args.join(' ')} did not start within 90 s: ${output}`)), 90_000);
    const check = setInterval(() => {
      const url = /(?:running at|Platform:)\s+(http:\/\/\S+)/.exec(output)?.[1];
      const apiKey = /Dev API key:\s+(\S+)/.exec(output)?.[1];
      if (!url || !apiKey) return;
      clearInterval(check);
      clearTimeout(timer);
      resolvePromise({ child, url: url.replace(/\/$/, ''), apiKey, output: () => output });
    }, 50);
    child.once('exit', (code) => {
      clearInterval(check);
      clearTimeout(timer);
      reject(new Error(`pnpm ${args.join(' ')} exited early (${code}): ${output}`));
    });
  });
}

/** Reads a raw SSE response to its end; resolves with its events' data and how it ended. */
async function readStream(response: Response, started: () => void): Promise<{ data: string[]; ended: string }> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      started();
    }
    return { data: text.split('\n').filter((line) => line.startsWith('data: ')), ended: 'clean' };
  } catch (error) {
    return { data: text.split('\n').filter((line) => line.startsWith('data: ')), ended: `failed: ${(error as Error).message}` };
  }
}

describe('the process tree of `pnpm start` and `pnpm palaver serve` on SIGTERM and Ctrl-C', () => {
  let upstream: FakeOpenAiUpstream;
  const leftovers: number[] = [];
  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    // Every answer starts, then stalls: a stream still running keeps the platform closing for its 2 s grace period.
    upstream.answerByDefault({
      kind: 'stream',
      chunks: [{ delta: { role: 'assistant', content: 'Still' } }, { delta: { content: ' talking' } }],
      after: 'stall',
    });
  });
  afterAll(async () => {
    for (const pid of running(leftovers)) process.kill(pid, 'SIGKILL');
    await upstream?.close();
  });

  it.each([
    ['start', 'SIGTERM to pnpm', 'SIGTERM', /Stopped \(SIGTERM\)/],
    ['start', 'Ctrl-C (SIGINT to the process group)', 'SIGINT', /Stopped \(SIGINT\)/],
    ['palaver serve --port 0', 'SIGTERM to pnpm', 'SIGTERM', /palaver: stopped \(SIGTERM\)/],
    ['palaver serve --port 0', 'Ctrl-C (SIGINT to the process group)', 'SIGINT', /palaver: stopped \(SIGINT\)/],
  ] as const)(
    'pnpm %s, %s: pnpm exits 0 once the platform closed, and nothing of its tree is left running',
    async (script, _how, signal, stoppedLine) => {
      const started = await startPnpm(script.split(' '));
      const pnpm = started.child.pid!;
      try {
        const client = createClient({ baseUrl: started.url, apiKey: started.apiKey, maxRetries: 0 });
        const llm = (await client.llms.create({ name: 'stalling', description: '', headers: [], model: 'fake-gpt', post_url: upstream.chatUrl })).id;
        const response = await fetch(`${started.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': started.apiKey },
          body: JSON.stringify({ model: llm, stream: true, messages: [{ role: 'user', content: 'Keep going.' }] }),
        });
        let streaming!: () => void;
        const streamStarted = new Promise<void>((done) => (streaming = done));
        const stream = readStream(response, () => streaming());
        await streamStarted;

        const tree = descendants(pnpm);
        leftovers.push(...tree);
        expect(tree.length, 'pnpm runs the platform in processes below it').toBeGreaterThan(0);
        // What of the tree still runs at the moment pnpm exits.
        const atExit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stillRunning: number[] }>((done) =>
          started.child.once('exit', (code, exitSignal) => done({ code, signal: exitSignal, stillRunning: running(tree) })),
        );
        const closed = new Promise<void>((done) => started.child.once('close', () => done()));
        if (signal === 'SIGINT') process.kill(-pnpm, 'SIGINT');
        else process.kill(pnpm, 'SIGTERM');

        const exit = await atExit;
        expect(exit.stillRunning, `processes of the tree still running when pnpm exited\n${started.output()}`).toEqual([]);
        expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
        // Its output ends once no process of the tree holds it.
        await closed;
        // The platform closed (rather than being killed): the script said so last.
        expect(started.output()).toMatch(stoppedLine);
        // The stream still running was ended by the shutdown, cleanly.
        const { data, ended } = await stream;
        expect(ended).toBe('clean');
        expect(data.slice(-1)).toEqual(['data: [DONE]']);
        expect(running(tree)).toEqual([]);
      } finally {
        if (started.child.exitCode === null && started.child.signalCode === null) process.kill(-pnpm, 'SIGKILL');
      }
    },
    150_000,
  );
});
