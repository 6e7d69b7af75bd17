import type { Logger } from 'pino';
import { AGENT_IDENTITY } from '../../contract/wire.js';
import { parseDataPacket } from '../../contract/sdk.js';
import { ERROR_TOPIC, TOOL_CALL_TOPIC, TURN_METRICS_TOPIC } from '../../contract/wire.js';
import { observedRecording, sessionTools, VoiceTurns, wireTurnMetrics } from '../voice/index.js';
import { PreConnectAudio } from '../voice/listener/pre-connect-audio.js';
import type { AgentRoomConnection, AgentTransport } from '../engines/media/index.js';
import type { Principal } from '../kernel/principal.js';
import type { SessionRecordings } from '../kernel/ports/session-recordings.js';
import { platformNodeLibrary } from './library/node-library.js';
import { GraphRuntime, type ResolvedGraph } from './runtime/graph-runtime.js';
import type { NodeLibrary } from './runtime/node-library.js';
import type { GraphEngines, GraphRunEnvironment } from './runtime/run-environment.js';
import type { RunLogEntry } from './runtime/run-log.js';
import { RuntimeApi } from './runtime-api/runtime-api.js';

/** The `error` data topic humans are told of failures on (wire protocol). */

/** Why a run stopped. */
export type AppRunStopReason = 'ended' | 'human_left' | 'usage_limit_exceeded' | 'time_limit_exceeded' | 'failed' | 'server_shutdown' | 'host_lost';

export interface AppRunSpec {
  runId: string;
  principal: Principal;
  graph: ResolvedGraph;
  publisherMetadata: Record<string, unknown> | undefined;
  /** Record the run (`recording: true`, decision 0122): `humanIdentity`'s voice is the left channel. */
  recording?: { humanIdentity: string } | undefined;
}

/** The hidden participant that records a run's room when it asked for it. */
export const RECORDER_IDENTITY = 'palaver-recorder';

export interface AppRunEvents {
  /** The run stopped by itself (everyone left, a failure). */
  stopped(reason: AppRunStopReason, detail?: string): void;
}

/** A run this instance hosts. */
export interface AppRunHandle {
  readonly runId: string;
  readonly runtime: GraphRuntime;
  readonly startedAt: number;
  /** Tells the humans in the room (the `error` topic). */
  tell(message: string): void;
  stop(reason: AppRunStopReason): Promise<void>;
}

export interface AppRunTuning {
  /** Everyone (but the agent) gone this long ends the run. */
  emptyGraceMs: number;
  /** Nobody joining within this long ends the run. */
  joinTimeoutMs: number;
}

export const DEFAULT_APP_RUN_TUNING: AppRunTuning = { emptyGraceMs: 20_000, joinTimeoutMs: 120_000 };

export interface AppRunHostDependencies {
  transport: AgentTransport;
  engines: GraphEngines;
  logger: Logger;
  library?: NodeLibrary;
  tuning?: Partial<AppRunTuning>;
  /** Stores the recordings of runs started with `recording: true`. */
  recordings?: SessionRecordings;
}

/**
 * Runs app graphs in their rooms, in process: joins the run's room as the agent, builds the graph with the
 * shared engines, serves the `runtime_api` topic and client tool calls, and stops the run once everyone
 * left for `emptyGraceMs`. A node that throws is logged, its message sent on the `error` topic, and the run
 * goes on.
 *
 * @example
 * const host = new AppRunHost({ transport, engines, logger });
 * const handle = await host.start({ runId, principal, graph, publisherMetadata: undefined }, { stopped: (reason) => markEnded(runId, reason) });
 */
export class AppRunHost {
  private readonly runs = new Map<string, AppRunHandle>();
  private readonly tuning: AppRunTuning;

  constructor(private readonly dependencies: AppRunHostDependencies) {
    this.tuning = { ...DEFAULT_APP_RUN_TUNING, ...dependencies.tuning };
  }

  get(runId: string): AppRunHandle | undefined {
    return this.runs.get(runId);
  }

  liveRuns(): number {
    return this.runs.size;
  }

  async start(spec: AppRunSpec, events: AppRunEvents): Promise<AppRunHandle> {
    const existing = this.runs.get(spec.runId);
    if (existing) return existing;
    const logger = this.dependencies.logger.child({ run: spec.runId });
    const recorder = await this.joinRecorder(spec, logger);
    const connection = await this.dependencies.transport
      .join({ room: spec.runId, identity: AGENT_IDENTITY, name: AGENT_IDENTITY })
      .catch(async (error: unknown) => {
        await recorder?.leave().catch(() => undefined);
        throw error;
      });
    let api: RuntimeApi | undefined;
    // livekit-client's pre-connect buffer (decision 0105): what a human said before the run subscribed to their
    // microphone leads that track's frames, whichever node takes it.
    const preConnect = new PreConnectAudio();
    const detachPreConnect = preConnect.attach(connection);
    const sendError = (message: string): void => {
      connection.sendData(JSON.stringify({ message }), { topic: ERROR_TOPIC, reliable: true }).catch(() => undefined);
    };
    const { clientCalls: clientTools } = sessionTools({
      send: (message) => connection.sendData(JSON.stringify(message), { topic: TOOL_CALL_TOPIC, reliable: true }),
      tuning: this.dependencies.engines.toolTuning,
      addressPolicy: this.dependencies.engines.toolAddressPolicy,
      logger,
    });
    // Each voice turn's measurements go to the humans in the room, as the built-in agent's do.
    const voiceTurns = new VoiceTurns(
      spec.runId,
      (metrics) => {
        this.dependencies.engines.onTurnMetrics?.(metrics);
        connection
          .sendData(JSON.stringify(wireTurnMetrics(metrics)), { topic: TURN_METRICS_TOPIC, reliable: true })
          .catch((error: unknown) => logger.debug({ err: error }, 'the turn metrics were not sent'));
      },
      logger,
    );
    const environment: GraphRunEnvironment = {
      runId: spec.runId,
      principal: spec.principal,
      engines: this.dependencies.engines,
      logger,
      room: preConnect.connectionWithBuffers(connection),
      clientTools,
      publisherMetadata: spec.publisherMetadata,
      voiceTurns,
      log: (entry: RunLogEntry) => {
        const level = entry.level === 'warning' ? 'warn' : entry.level;
        logger[level]({ node: entry.node, pad: entry.pad, subgraph: entry.subgraph }, entry.message);
        api?.log(entry);
      },
      nodeFailed: (node, error) => sendError(`${node.type} node '${node.id}' failed: ${error.message}`),
    };
    let runtime: GraphRuntime;
    try {
      runtime = GraphRuntime.build(spec.graph, this.dependencies.library ?? platformNodeLibrary, environment);
    } catch (error) {
      detachPreConnect();
      await connection.leave().catch(() => undefined);
      await recorder?.leave().catch(() => undefined);
      throw error;
    }
    api = new RuntimeApi(connection, runtime, logger);
    api.start();
    const unsubscribeTools = connection.on('data', (data) => {
      if (data.topic !== TOOL_CALL_TOPIC || !data.from) return;
      const packet = parseDataPacket(data.topic, new TextDecoder().decode(data.payload));
      if (packet?.topic === TOOL_CALL_TOPIC) clientTools.receive(packet.payload);
    });
    let stopped = false;
    const watch = this.watchPresence(connection, () => void stopBy('human_left', 'everyone left the room'));
    const stopBy = async (reason: AppRunStopReason, detail?: string): Promise<void> => {
      if (stopped) return;
      await handle.stop(reason);
      events.stopped(reason, detail);
    };
    const handle: AppRunHandle = {
      runId: spec.runId,
      runtime,
      startedAt: Date.now(),
      tell: sendError,
      stop: async (reason) => {
        if (stopped) return;
        stopped = true;
        this.runs.delete(spec.runId);
        watch();
        unsubscribeTools();
        detachPreConnect();
        logger.info({ reason }, 'app run stopped');
        await runtime.stop();
        api?.stop();
        await connection.leave().catch(() => undefined);
        // After the graph left: the recording holds everything it said, and is stored now.
        await recorder?.leave().catch(() => undefined);
      },
    };
    connection.on('disconnected', (reason) => void stopBy('failed', `the run was disconnected from the room (${reason})`));
    this.runs.set(spec.runId, handle);
    runtime.start();
    logger.info({ nodes: runtime.nodes.size }, 'app run started');
    return handle;
  }

  /**
   * The hidden participant recording the run's room (both sides, as a LiveKit Agents worker's session is recorded),
   * joined before the graph so the recording's clock starts with the run; undefined when the run records nothing.
   */
  private async joinRecorder(spec: AppRunSpec, logger: Logger): Promise<AgentRoomConnection | undefined> {
    const { recordings, transport } = this.dependencies;
    if (!spec.recording || !recordings) return undefined;
    const observer = await transport.join({ room: spec.runId, identity: RECORDER_IDENTITY, name: RECORDER_IDENTITY, hidden: true });
    const target = { id: spec.runId, project: spec.principal.project, humanIdentity: spec.recording.humanIdentity };
    return observedRecording(observer, target, recordings, logger);
  }

  /** Calls `empty` when nobody but the agent has been in the room for the grace period (or never came). */
  private watchPresence(connection: AgentRoomConnection, empty: () => void): () => void {
    let timer: NodeJS.Timeout | undefined;
    const others = () => connection.participants().filter((participant) => participant.identity !== AGENT_IDENTITY).length;
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (others() === 0) empty();
      }, ms);
      timer.unref();
    };
    if (others() === 0) arm(this.tuning.joinTimeoutMs);
    const offJoined = connection.on('participantJoined', () => clearTimeout(timer));
    const offLeft = connection.on('participantLeft', () => {
      if (others() === 0) arm(this.tuning.emptyGraceMs);
    });
    return () => {
      clearTimeout(timer);
      offJoined();
      offLeft();
    };
  }

  /** Stops every run (server shutdown). */
  async close(): Promise<void> {
    await Promise.all([...this.runs.values()].map((handle) => handle.stop('server_shutdown')));
  }
}
