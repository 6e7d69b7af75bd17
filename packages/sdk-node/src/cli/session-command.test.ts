import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AvailabilityResponse, JobType, RegisterWorkerRequest, ServerMessage, WorkerMessage } from '@livekit/protocol';
import { Room } from '@livekit/rtc-node';
import { createClient, type PalaverClient } from '@palaver/sdk-core';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { AccessToken } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionConfig } from './session-command.js';

/** The client socket of `ws` (a dependency of sdk-node, its types are not): what this test's worker uses of it. */
interface WorkerSocket {
  send(data: Uint8Array): void;
  close(): void;
  once(event: 'open' | 'error', listener: (error?: Error) => void): WorkerSocket;
  on(event: 'message', listener: (data: Buffer) => void): WorkerSocket;
}
const WebSocket = createRequire(import.meta.url)('ws') as new (url: string, options: { headers: Record<string, string> }) => WorkerSocket;

const main = resolve(dirname(fileURLToPath(import.meta.url)), 'main.ts');
const KEY = 'cli-session-key';
const SECRET = 'cli-session-secret-0123456789-0123456789';
const WORKER = 'cli-worker';

/** Runs the CLI without blocking this process (the platform answers it from here). */
function palaver(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], { env: { ...process.env, PALAVER_API_KEY: '', PALAVER_URL: '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolvePromise) => child.once('close', (status) => resolvePromise({ status, stdout, stderr })));
}

/**
 * A LiveKit Agents worker reduced to the protocol: registers as {@link WORKER}, takes every job it is offered and
 * joins the job's room with the assignment's token, as `@livekit/agents` does.
 */
async function startWorker(url: string): Promise<{ rooms: Room[]; close(): Promise<void> }> {
  const token = new AccessToken(KEY, SECRET);
  token.addGrant({ agent: true });
  const socket = new WebSocket(`${url}/agent`, { headers: { authorization: `Bearer ${await token.toJwt()}` } });
  await new Promise((resolveOpen, reject) => socket.once('open', resolveOpen).once('error', reject));
  const send = (message: WorkerMessage['message']) => socket.send(new WorkerMessage({ message }).toBinary());
  const rooms: Room[] = [];
  const registered = new Promise<void>((resolveRegistered) => {
    socket.on('message', (data) => {
      const { message } = ServerMessage.fromBinary(new Uint8Array(data));
      if (message.case === 'register') resolveRegistered();
      if (message.case === 'availability') {
        const job = message.value.job!;
        send({
          case: 'availability',
          value: new AvailabilityResponse({ jobId: job.id, available: true, participantIdentity: `agent-${job.id}`, participantName: WORKER }),
        });
      }
      if (message.case === 'assignment') {
        const room = new Room();
        rooms.push(room);
        void room.connect(message.value.url || url, message.value.token, { autoSubscribe: false, dynacast: false });
      }
    });
  });
  send({ case: 'register', value: new RegisterWorkerRequest({ type: JobType.JT_ROOM, agentName: WORKER, version: 'cli-test' }) });
  await registered;
  return {
    rooms,
    async close() {
      await Promise.all(rooms.map((room) => room.disconnect()));
      socket.close();
    },
  };
}

describe('palaver session', () => {
  let server: PalaverServer;
  let url: string;
  let client: PalaverClient;
  let worker: Awaited<ReturnType<typeof startWorker>>;

  beforeAll(async () => {
    server = await createServer({ env: { LIVEKIT_API_KEY: KEY, LIVEKIT_API_SECRET: SECRET }, config: { logLevel: 'silent' } });
    url = await server.listen(0, '127.0.0.1');
    client = createClient({ baseUrl: url, apiKey: server.apiKey, maxRetries: 0 });
    worker = await startWorker(url.replace(/^http/, 'ws'));
  }, 60_000);

  afterAll(async () => {
    await worker?.close();
    await server?.close();
  });

  it("start --worker starts a session whose agent is the worker's and prints its id, url and token; end ends it", async () => {
    const started = await palaver(['session', 'start', '--worker', WORKER, '--metadata', 'from the CLI', '--url', url, '--api-key', server.apiKey]);
    expect(started.status, started.stderr).toBe(0);
    const field = (name: string) => new RegExp(`^${name}:\\s+(\\S+)`, 'm').exec(started.stdout)?.[1];
    const id = field('session')!;
    expect(id).toMatch(/^rts_/);
    expect(started.stdout).toContain(`agent:   LiveKit Agents worker '${WORKER}' (in_progress)`);
    expect(field('url')).toBe(url.replace(/^http/, 'ws'));
    expect(field('token')).toMatch(/^ey/);
    const session = await client.realtime.retrieve(id);
    expect(session).toMatchObject({
      state: 'in_progress',
      config: { general: { agent: { type: 'livekit_worker', agent_name: WORKER, metadata: 'from the CLI' } } },
    });
    // The human joins with what was printed.
    const human = new Room();
    await human.connect(field('url')!, field('token')!, { autoSubscribe: false, dynacast: false });
    try {
      expect([...human.remoteParticipants.keys()].some((identity) => identity.startsWith('agent-'))).toBe(true);
    } finally {
      await human.disconnect();
    }

    const ended = await palaver(['session', 'end', id, '--url', url, '--api-key', server.apiKey]);
    expect(ended.status, ended.stderr).toBe(0);
    expect(ended.stdout).toBe(`session: ${id} ended\n`);
    expect((await client.realtime.retrieve(id)).state).toBe('ended');
  }, 60_000);

  it('--json prints the whole answer', async () => {
    const started = await palaver(['session', 'start', '--worker', WORKER, '--json', '--url', url, '--api-key', server.apiKey]);
    expect(started.status, started.stderr).toBe(0);
    const answer = JSON.parse(started.stdout) as { session: { id: string; config: { input: unknown } }; connection_details: { url: string; token: string } };
    expect(answer.connection_details.token).toBeTruthy();
    expect(answer.session.config.input).toEqual({ interruptable: true, parallel_listening: false });
    await client.realtime.end(answer.session.id);
  }, 60_000);

  it('says in one line when no worker of that name is registered, or no API key is given', async () => {
    const refused = await palaver(['session', 'start', '--worker', 'nobody-runs-this', '--url', url, '--api-key', server.apiKey]);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^palaver: .*no LiveKit Agents worker named 'nobody-runs-this'/);
    const keyless = await palaver(['session', 'start', '--worker', WORKER, '--url', url]);
    expect(keyless.status).toBe(1);
    expect(keyless.stderr).toBe('palaver: An API key is required: pass --api-key or set PALAVER_API_KEY\n');
  }, 60_000);

  it('builds the start request: only general.agent for a worker, every section for the built-in agent', () => {
    expect(sessionConfig({ worker: 'w', timeLimit: '90' })).toEqual({ general: { time_limit_s: 90, agent: { type: 'livekit_worker', agent_name: 'w' } } });
    expect(sessionConfig({ llm: 'llm_1' })).toEqual({ general: {}, input: {}, output: {}, generative: { llm: 'llm_1' } });
    expect(sessionConfig({})).toMatchObject({ generative: { llm: 'builtin-offline' } });
    expect(() => sessionConfig({ timeLimit: 'soon' })).toThrow('--time-limit soon is not a whole number of seconds');
    expect(() => sessionConfig({ metadata: 'x' })).toThrow('use it with --worker');
  });
});
