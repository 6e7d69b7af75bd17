import { AvailabilityResponse, JobType, RegisterWorkerRequest, ServerMessage, WorkerMessage, WorkerPing, type Job } from '@livekit/protocol';
import { AccessToken, TokenVerifier } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createServer, type PalaverServer } from '../../../../app/create-server.js';
import type { AgentWorkers } from './agent-workers.js';

const KEY = 'pool-test-key';
const SECRET = 'pool-test-secret-0123456789-0123456789';

/** A worker speaking the protocol by hand: what it receives, and how it answers availability requests. */
class RawWorker {
  readonly received: ServerMessage[] = [];
  readonly closed: Promise<number>;
  private constructor(
    readonly socket: WebSocket,
    private answer: (job: Job) => AvailabilityResponse | undefined,
  ) {
    socket.on('message', (data) => {
      const message = ServerMessage.fromBinary(new Uint8Array(data as Buffer));
      this.received.push(message);
      if (message.message.case === 'availability') {
        const reply = this.answer(message.message.value.job!);
        if (reply) this.send({ case: 'availability', value: reply });
      }
    });
    this.closed = new Promise((resolve) => socket.on('close', (code) => resolve(code)));
  }

  static async connect(url: string, answer: (job: Job) => AvailabilityResponse | undefined = () => undefined): Promise<RawWorker> {
    const token = new AccessToken(KEY, SECRET);
    token.addGrant({ agent: true });
    const socket = new WebSocket(`${url}/agent`, { headers: { authorization: `Bearer ${await token.toJwt()}` } });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return new RawWorker(socket, answer);
  }

  send(message: WorkerMessage['message']): void {
    this.socket.send(new WorkerMessage({ message }).toBinary());
  }

  register(agentName: string): void {
    this.send({ case: 'register', value: new RegisterWorkerRequest({ type: JobType.JT_ROOM, agentName, version: 'raw' }) });
  }

  async next(kind: NonNullable<ServerMessage['message']['case']>, timeoutMs = 3000): Promise<ServerMessage['message']> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find((message) => message.message.case === kind);
      if (found) {
        this.received.splice(this.received.indexOf(found), 1);
        return found.message;
      }
      if (Date.now() > deadline) throw new Error(`no ${kind} message`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

describe('agent workers (the embedded endpoint side of the LiveKit agent protocol)', () => {
  let server: PalaverServer;
  let url: string;
  let workers: AgentWorkers;

  beforeAll(async () => {
    server = await createServer({ env: { LIVEKIT_API_KEY: KEY, LIVEKIT_API_SECRET: SECRET }, config: { logLevel: 'silent' } });
    url = (await server.listen(0, '127.0.0.1')).replace(/^http/, 'ws');
    workers = server.services.media.endpoint!.agentWorkers;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('registers, answers pings, offers a job to the next worker when one declines, and assigns a token for the chosen identity', async () => {
    const declining = await RawWorker.connect(url, (job) => new AvailabilityResponse({ jobId: job.id, available: false }));
    declining.register('pool');
    const register = await declining.next('register');
    expect(register.case === 'register' && register.value.workerId).toMatch(/^AW_/);
    declining.send({ case: 'ping', value: new WorkerPing({ timestamp: 42n }) });
    const pong = await declining.next('pong');
    expect(pong.case === 'pong' && pong.value.lastTimestamp).toBe(42n);

    const accepting = await RawWorker.connect(
      url,
      (job) => new AvailabilityResponse({ jobId: job.id, available: true, participantIdentity: 'pool-agent', participantName: 'Pool' }),
    );
    accepting.register('pool');
    await accepting.next('register');
    // The declining worker reports a lower load, so it is asked first.
    accepting.send({ case: 'updateWorker', value: { load: 0.5 } as never });
    await new Promise((resolve) => setTimeout(resolve, 50));

    const { id } = await workers.dispatch({ room: 'pool-room', agentName: 'pool', metadata: 'meta' });
    const offered = await declining.next('availability');
    expect(offered.case === 'availability' && offered.value.job?.metadata).toBe('meta');
    const assignment = await accepting.next('assignment');
    if (assignment.case !== 'assignment') throw new Error('not an assignment');
    expect(assignment.value.job?.room?.name).toBe('pool-room');
    const claims = await new TokenVerifier(KEY, SECRET).verify(assignment.value.token);
    expect(claims).toMatchObject({ sub: 'pool-agent', name: 'Pool', kind: 'agent', video: { room: 'pool-room', roomJoin: true, agent: true } });
    const [dispatch] = workers.listDispatches('pool-room', id);
    expect(dispatch?.state?.jobs[0]?.state?.participantIdentity).toBe('pool-agent');

    // Deleting the dispatch terminates the job on its worker.
    workers.deleteDispatch('pool-room', id);
    const termination = await accepting.next('termination');
    expect(termination.case === 'termination' && termination.value.jobId).toBe(assignment.value.job?.id);
    declining.socket.close();
    accepting.socket.close();
  });

  it('keeps a dispatch nobody can take until a worker of its name registers', async () => {
    workers.createDispatch({ room: 'later-room', agentName: 'late' });
    const late = await RawWorker.connect(url);
    late.register('late');
    const offered = await late.next('availability');
    expect(offered.case === 'availability' && offered.value.job?.room?.name).toBe('later-room');
    late.socket.close();
  });

  it('closes a worker that talks before registering or sends garbage', async () => {
    const eager = await RawWorker.connect(url);
    eager.send({ case: 'ping', value: new WorkerPing({ timestamp: 1n }) });
    expect(await eager.closed).toBe(1008);
    const noisy = await RawWorker.connect(url);
    for (let index = 0; index < 3; index += 1) noisy.socket.send(Buffer.from([0xff, 0xff, 0xff]));
    expect(await noisy.closed).toBe(1007);
    expect(server.services.media.endpoint!.clientSessions()).toEqual([]);
  });
});
