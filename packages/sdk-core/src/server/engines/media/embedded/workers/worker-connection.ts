import {
  AvailabilityRequest,
  JobAssignment,
  JobTermination,
  JobType,
  ParticipantPermission,
  RegisterWorkerResponse,
  ServerMessage,
  WorkerMessage,
  WorkerPong,
  WorkerStatus,
  type AvailabilityResponse,
  type Job,
  type RegisterWorkerRequest,
  type ServerInfo,
  type UpdateJobStatus,
} from '@livekit/protocol';
import type { WebSocket } from 'ws';
import { newSid } from '../published-audio-track.js';
import { TokenBucket } from '../token-bucket.js';

/** The agent protocol version the endpoint speaks (LiveKit's `ServerInfo.agentProtocol`). */
const AGENT_PROTOCOL = 1;
/** Messages per second a worker may send (load updates every 2.5 s, pings, answers) before it is cut off. */
const MESSAGES_PER_SECOND = 50;
/** Undecodable messages tolerated before the socket is closed. */
const MAX_MALFORMED = 3;
/** How long a worker has to register after connecting. */
const REGISTER_TIMEOUT_MS = 10_000;

export interface WorkerConnectionEvents {
  /** The worker registered (its name, type and permissions are known from now on). */
  registered(worker: WorkerConnection): void;
  /** The worker answered an availability request. */
  availability(worker: WorkerConnection, answer: AvailabilityResponse): void;
  /** The worker reported a job's status (Python workers do; Node workers do not). */
  jobStatus(worker: WorkerConnection, update: UpdateJobStatus): void;
  /** The socket closed (or was closed for misbehaving). */
  closed(worker: WorkerConnection): void;
}

/**
 * One LiveKit Agents worker's websocket (`/agent`): protobuf `WorkerMessage` in, `ServerMessage` out. It
 * answers registration and pings itself; everything about jobs goes to the pool through `events`.
 * Undecodable input, floods and a missing registration end in a close, never an exception.
 *
 * @example
 * const worker = new WorkerConnection(socket, { registered, availability, jobStatus, closed });
 * worker.requestAvailability(job);
 */
export class WorkerConnection {
  readonly id = newSid('AW');
  agentName = '';
  jobType: JobType = JobType.JT_ROOM;
  namespace = '';
  version = '';
  permissions = new ParticipantPermission({ canPublish: true, canSubscribe: true, canPublishData: true, canUpdateMetadata: true, agent: true });
  status: WorkerStatus = WorkerStatus.WS_AVAILABLE;
  load = 0;
  isRegistered = false;
  private closedFlag = false;
  private malformed = 0;
  private readonly bucket = new TokenBucket(MESSAGES_PER_SECOND);
  private readonly registerTimer: NodeJS.Timeout;

  constructor(
    private readonly socket: WebSocket,
    private readonly events: WorkerConnectionEvents,
    private readonly serverInfo: ServerInfo,
  ) {
    socket.binaryType = 'nodebuffer';
    socket.on('message', (data, isBinary) => this.receive(data as Buffer, isBinary));
    socket.on('close', () => this.closed());
    socket.on('error', () => this.close(1007, 'socket error'));
    this.registerTimer = setTimeout(() => this.close(1008, 'no registration'), REGISTER_TIMEOUT_MS);
    this.registerTimer.unref();
  }

  get isClosed(): boolean {
    return this.closedFlag;
  }

  /** Whether the worker takes new jobs now. */
  get isAvailable(): boolean {
    return this.isRegistered && !this.closedFlag && this.status === WorkerStatus.WS_AVAILABLE;
  }

  requestAvailability(job: Job): void {
    this.send({ case: 'availability', value: new AvailabilityRequest({ job, resuming: false }) });
  }

  assign(job: Job, token: string): void {
    this.send({ case: 'assignment', value: new JobAssignment({ job, token }) });
  }

  terminate(jobId: string): void {
    this.send({ case: 'termination', value: new JobTermination({ jobId }) });
  }

  close(code = 1000, reason = ''): void {
    if (this.closedFlag) return;
    this.socket.close(code, reason);
    this.closed();
  }

  private send(message: ServerMessage['message']): void {
    if (this.closedFlag || this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(new ServerMessage({ message }).toBinary());
  }

  private receive(data: Buffer, isBinary: boolean): void {
    if (this.closedFlag) return;
    if (!this.bucket.take()) {
      this.close(1008, 'too many messages');
      return;
    }
    let message: WorkerMessage;
    try {
      if (!isBinary) throw new Error('text message');
      message = WorkerMessage.fromBinary(new Uint8Array(data));
    } catch {
      if (++this.malformed >= MAX_MALFORMED) this.close(1007, 'undecodable messages');
      return;
    }
    const { case: kind, value } = message.message;
    if (kind !== 'register' && !this.isRegistered) {
      this.close(1008, 'register first');
      return;
    }
    switch (kind) {
      case 'register':
        this.register(value);
        break;
      case 'ping':
        this.send({ case: 'pong', value: new WorkerPong({ lastTimestamp: value.timestamp, timestamp: BigInt(Date.now()) }) });
        break;
      case 'updateWorker':
        if (value.status !== undefined) this.status = value.status;
        this.load = value.load;
        break;
      case 'availability':
        this.events.availability(this, value);
        break;
      case 'updateJob':
        this.events.jobStatus(this, value);
        break;
      default:
        // migrateJob, simulateJob and text requests are LiveKit Cloud features the endpoint does not serve.
        break;
    }
  }

  private register(request: RegisterWorkerRequest): void {
    if (this.isRegistered) return;
    clearTimeout(this.registerTimer);
    this.isRegistered = true;
    this.agentName = request.agentName;
    this.jobType = request.type;
    this.namespace = request.namespace ?? '';
    this.version = request.version;
    if (request.allowedPermissions) this.permissions = request.allowedPermissions;
    this.send({
      case: 'register',
      value: new RegisterWorkerResponse({
        workerId: this.id,
        serverInfo: Object.assign(this.serverInfo.clone(), { agentProtocol: AGENT_PROTOCOL }),
      }),
    });
    this.events.registered(this);
  }

  private closed(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    clearTimeout(this.registerTimer);
    this.events.closed(this);
  }
}
