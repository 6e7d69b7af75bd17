import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  AgentDispatch,
  AgentDispatchState,
  Job,
  JobState,
  JobStatus,
  JobType,
  type AvailabilityResponse,
  type RoomAgentDispatch,
  type UpdateJobStatus,
} from '@livekit/protocol';
import type { Logger } from 'pino';
import { WebSocketAcceptor } from '../../../../kernel/websocket-acceptor.js';
import type { AgentDispatcher, AgentDispatchOptions, RegisteredAgent } from '../../agent-dispatcher.js';
import { AccessTokenError, tokenFromRequest, type JoinTokenVerifier } from '../access-token.js';
import { serverInfo, type EndpointSettings } from '../endpoint-settings.js';
import { newSid } from '../published-audio-track.js';
import type { Room } from '../room.js';
import type { RoomRegistry } from '../room-registry.js';
import { mintJobToken } from './job-token.js';
import { WorkerConnection } from './worker-connection.js';

/** Largest message a worker sends (a registration or an availability answer with attributes). */
const MAX_WORKER_MESSAGE_BYTES = 256 * 1024;

export interface AgentWorkersTuning {
  /** How long a worker has to answer an availability request before the next one is asked. */
  availabilityTimeoutMs: number;
  /** How long an assigned job's agent has to join the room before the job counts as failed. */
  joinTimeoutMs: number;
}

const DEFAULT_TUNING: AgentWorkersTuning = { availabilityTimeoutMs: 5_000, joinTimeoutMs: 30_000 };

interface JobRecord {
  job: Job;
  worker: WorkerConnection;
  joinTimer: NodeJS.Timeout | undefined;
}

interface DispatchRecord {
  dispatch: AgentDispatch;
  room: Room;
  jobs: JobRecord[];
  assigning: boolean;
}

/**
 * LiveKit's agent worker protocol on the embedded endpoint: `@livekit/agents` workers connect to `/agent`
 * (a token with the `agent` grant), register under an agent name, and are offered jobs: one per dispatch of
 * their name to a room. A dispatch comes from the AgentDispatchService, from a join token's room
 * configuration, from a room created without one (the workers registered without a name, like LiveKit), or
 * from a realtime session that names a worker. The pool asks the least-loaded available worker, then the
 * next; on acceptance it mints the job's join token and assigns it. A job runs while its agent is in the
 * room; it ends when the agent leaves, the dispatch is deleted (termination) or the room closes. A dispatch
 * no worker took waits for one to register.
 *
 * @example
 * server.onUpgrade('/agent', (request, socket, head) => endpoint.agentWorkers.handleUpgrade(request, socket, head));
 * const { id } = await endpoint.agentWorkers.dispatch({ room: 'support-1', agentName: 'support' });
 */
export class AgentWorkers implements AgentDispatcher {
  private readonly workers = new Set<WorkerConnection>();
  private readonly dispatches = new Map<string, DispatchRecord>();
  private readonly availabilityWaiters = new Map<string, (answer: AvailabilityResponse | undefined) => void>();
  private readonly watchedRooms = new Set<Room>();
  private readonly sockets: WebSocketAcceptor;
  private readonly tuning: AgentWorkersTuning;

  constructor(
    private readonly options: {
      rooms: RoomRegistry;
      verifier: JoinTokenVerifier;
      settings: EndpointSettings;
      logger: Logger;
      tuning?: Partial<AgentWorkersTuning>;
    },
  ) {
    this.tuning = { ...DEFAULT_TUNING, ...options.tuning };
    this.sockets = new WebSocketAcceptor({ maximumMessageBytes: MAX_WORKER_MESSAGE_BYTES, logger: options.logger, name: 'agent workers' });
  }

  /** Accepts a worker's websocket (`GET /agent` upgrade) when its token carries the `agent` grant. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.sockets.guard(socket);
    const url = new URL(request.url ?? '/', 'http://localhost');
    void this.options.verifier.verify(tokenFromRequest(url, request.headers.authorization)).then(
      (claims) => {
        if (!claims.video?.agent) {
          this.sockets.refuse(socket, 401, 'Unauthorized', 'permissions denied: the token needs the agent grant');
          return;
        }
        this.sockets.complete(request, socket, head, (webSocket) => this.open(webSocket));
      },
      (error: unknown) => {
        const message = error instanceof AccessTokenError ? error.message : 'invalid token';
        this.sockets.refuse(socket, 401, 'Unauthorized', message);
      },
    );
  }

  /** Registered workers (tests, metrics). */
  registeredWorkers(): Array<{ id: string; agentName: string; available: boolean; load: number }> {
    return [...this.workers]
      .filter((worker) => worker.isRegistered)
      .map((worker) => ({ id: worker.id, agentName: worker.agentName, available: worker.isAvailable, load: worker.load }));
  }

  hasWorker(agentName: string): boolean {
    return [...this.workers].some((worker) => worker.isRegistered && worker.agentName === agentName);
  }

  /** The agent names registered, by name; workers registered without one are left out (no session can name them). */
  registeredAgents(): RegisteredAgent[] {
    const byName = new Map<string, RegisteredAgent>();
    for (const worker of this.registeredWorkers()) {
      if (worker.agentName === '') continue;
      const known = byName.get(worker.agentName);
      byName.set(worker.agentName, {
        agentName: worker.agentName,
        workers: (known?.workers ?? 0) + 1,
        available: (known?.available ?? false) || worker.available,
      });
    }
    return [...byName.values()].sort((left, right) => (left.agentName < right.agentName ? -1 : left.agentName > right.agentName ? 1 : 0));
  }

  async dispatch(options: AgentDispatchOptions): Promise<{ id: string }> {
    return { id: this.createDispatch(options).id };
  }

  async cancel(room: string, dispatchId: string): Promise<void> {
    this.deleteDispatch(room, dispatchId);
  }

  /** Creates a dispatch of `agentName` to `room` (created when missing) and offers its job. */
  createDispatch(options: AgentDispatchOptions): AgentDispatch {
    const room = this.options.rooms.ensure({ name: options.room });
    const dispatch = new AgentDispatch({
      id: newSid('AD'),
      agentName: options.agentName,
      room: room.name,
      metadata: options.metadata ?? '',
      state: new AgentDispatchState({ jobs: [], createdAt: BigInt(Date.now()) * 1_000_000n }),
    });
    const record: DispatchRecord = { dispatch, room, jobs: [], assigning: false };
    this.dispatches.set(dispatch.id, record);
    if (!this.watchedRooms.has(room)) this.watchRoom(room);
    void this.assign(record);
    return dispatch;
  }

  /** The dispatches of a room (all, or the one with `dispatchId`), with their jobs' states. */
  listDispatches(room: string, dispatchId?: string): AgentDispatch[] {
    return [...this.dispatches.values()]
      .filter((record) => record.room.name === room && (!dispatchId || record.dispatch.id === dispatchId))
      .map((record) => this.present(record));
  }

  /** Deletes a dispatch and terminates its jobs; undefined when the room has no such dispatch. */
  deleteDispatch(room: string, dispatchId: string): AgentDispatch | undefined {
    const record = this.dispatches.get(dispatchId);
    if (!record || record.room.name !== room) return undefined;
    this.dispatches.delete(dispatchId);
    for (const job of record.jobs) this.endJob(job, JobStatus.JS_SUCCESS, '', true);
    const presented = this.present(record);
    presented.state!.deletedAt = BigInt(Date.now()) * 1_000_000n;
    return presented;
  }

  /**
   * A room was created by a join or the RoomService: dispatch the agents its configuration names, or else,
   * like LiveKit, the workers registered without a name.
   */
  roomCreated(room: Room, agents: RoomAgentDispatch[] = []): void {
    if (agents.length > 0) {
      for (const agent of agents) this.createDispatch({ room: room.name, agentName: agent.agentName, metadata: agent.metadata });
    } else if (this.hasWorker('')) {
      this.createDispatch({ room: room.name, agentName: '' });
    }
  }

  close(): void {
    for (const worker of this.workers) worker.close(1001, 'server shutdown');
    void this.sockets.close();
  }

  /** Ends a job when its agent leaves, and everything of the room when it closes. */
  private watchRoom(room: Room): void {
    this.watchedRooms.add(room);
    const unsubscribe = room.onMembership((member, joined) => {
      for (const record of this.recordsOf(room)) {
        for (const job of record.jobs) {
          if (job.job.state?.participantIdentity !== member.state.identity || job.job.state.status !== JobStatus.JS_RUNNING) continue;
          if (joined) {
            if (job.joinTimer) clearTimeout(job.joinTimer);
            job.joinTimer = undefined;
          } else {
            this.endJob(job, JobStatus.JS_SUCCESS, '', false);
          }
        }
      }
    });
    room.onClose(() => {
      unsubscribe();
      this.watchedRooms.delete(room);
      for (const record of this.recordsOf(room)) {
        this.dispatches.delete(record.dispatch.id);
        for (const job of record.jobs) this.endJob(job, JobStatus.JS_SUCCESS, '', true);
      }
    });
  }

  private recordsOf(room: Room): DispatchRecord[] {
    return [...this.dispatches.values()].filter((record) => record.room === room);
  }

  private open(webSocket: import('ws').WebSocket): void {
    const worker = new WorkerConnection(
      webSocket,
      {
        registered: (registered) => {
          this.options.logger.info({ worker: registered.id, agentName: registered.agentName, version: registered.version }, 'agent worker registered');
          // Dispatches nobody took yet wait for a worker of their name.
          for (const record of this.dispatches.values()) if (record.dispatch.agentName === registered.agentName) void this.assign(record);
        },
        availability: (_worker, answer) => this.availabilityWaiters.get(answer.jobId)?.(answer),
        jobStatus: (from, update) => this.jobStatus(from, update),
        closed: (closed) => {
          this.workers.delete(closed);
          this.options.logger.info({ worker: closed.id, agentName: closed.agentName }, 'agent worker disconnected');
          // Jobs whose agent never joined are lost with their worker; agents already in a room stay there.
          for (const record of this.dispatches.values()) {
            for (const job of record.jobs) if (job.worker === closed && job.joinTimer) this.endJob(job, JobStatus.JS_FAILED, 'the worker disconnected', false);
          }
        },
      },
      serverInfo(this.options.settings),
    );
    this.workers.add(worker);
  }

  /** Offers the dispatch's job to the available workers of its name, least loaded first, until one accepts. */
  private async assign(record: DispatchRecord): Promise<void> {
    if (record.assigning || record.jobs.some((job) => isActive(job.job))) return;
    record.assigning = true;
    try {
      const asked = new Set<WorkerConnection>();
      for (;;) {
        if (!this.dispatches.has(record.dispatch.id) || record.room.closed) return;
        const worker = [...this.workers]
          .filter((candidate) => candidate.isAvailable && candidate.agentName === record.dispatch.agentName && !asked.has(candidate))
          .sort((a, b) => a.load - b.load)[0];
        if (!worker) return;
        asked.add(worker);
        const job = new Job({
          id: newSid('AJ'),
          dispatchId: record.dispatch.id,
          type: worker.jobType === JobType.JT_PUBLISHER || worker.jobType === JobType.JT_PARTICIPANT ? worker.jobType : JobType.JT_ROOM,
          room: record.room.info(),
          namespace: worker.namespace,
          metadata: record.dispatch.metadata,
          agentName: record.dispatch.agentName,
          state: new JobState({ status: JobStatus.JS_PENDING, workerId: worker.id, updatedAt: nowNs() }),
        });
        const answer = await this.askAvailability(worker, job);
        if (!answer?.available) continue;
        if (!this.dispatches.has(record.dispatch.id) || record.room.closed) {
          worker.terminate(job.id);
          return;
        }
        const identity = answer.participantIdentity || `agent-${job.id}`;
        const token = await mintJobToken(this.options.settings, {
          room: record.room.name,
          identity,
          name: answer.participantName,
          metadata: answer.participantMetadata,
          attributes: answer.participantAttributes,
          permissions: worker.permissions,
        });
        Object.assign(job.state!, { status: JobStatus.JS_RUNNING, participantIdentity: identity, startedAt: nowNs(), updatedAt: nowNs() });
        const running: JobRecord = { job, worker, joinTimer: undefined };
        running.joinTimer = setTimeout(
          () => this.endJob(running, JobStatus.JS_FAILED, `the agent did not join within ${this.tuning.joinTimeoutMs / 1000} s`, true),
          this.tuning.joinTimeoutMs,
        );
        running.joinTimer.unref();
        record.jobs.push(running);
        worker.assign(job, token);
        this.options.logger.info(
          { room: record.room.name, job: job.id, worker: worker.id, agentName: record.dispatch.agentName, identity },
          'agent job assigned',
        );
        return;
      }
    } finally {
      record.assigning = false;
    }
  }

  private askAvailability(worker: WorkerConnection, job: Job): Promise<AvailabilityResponse | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(undefined), this.tuning.availabilityTimeoutMs);
      const finish = (answer: AvailabilityResponse | undefined): void => {
        clearTimeout(timer);
        this.availabilityWaiters.delete(job.id);
        resolve(answer);
      };
      this.availabilityWaiters.set(job.id, finish);
      worker.requestAvailability(job);
    });
  }

  private jobStatus(from: WorkerConnection, update: UpdateJobStatus): void {
    for (const record of this.dispatches.values()) {
      const job = record.jobs.find((candidate) => candidate.job.id === update.jobId && candidate.worker === from);
      if (!job || update.status === JobStatus.JS_RUNNING || update.status === JobStatus.JS_PENDING) continue;
      this.endJob(job, update.status, update.error, false);
    }
  }

  private endJob(job: JobRecord, status: JobStatus, error: string, terminate: boolean): void {
    if (job.joinTimer) clearTimeout(job.joinTimer);
    job.joinTimer = undefined;
    const state = job.job.state!;
    if (!isActive(job.job)) return;
    Object.assign(state, { status, error, endedAt: nowNs(), updatedAt: nowNs() });
    if (terminate) job.worker.terminate(job.job.id);
    if (status === JobStatus.JS_FAILED) this.options.logger.warn({ job: job.job.id, worker: job.worker.id, error }, 'agent job failed');
  }

  private present(record: DispatchRecord): AgentDispatch {
    const dispatch = record.dispatch.clone();
    dispatch.state!.jobs = record.jobs.map((job) => job.job.clone());
    return dispatch;
  }
}

function isActive(job: Job): boolean {
  const status = job.state?.status;
  return status === JobStatus.JS_PENDING || status === JobStatus.JS_RUNNING;
}

function nowNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}
