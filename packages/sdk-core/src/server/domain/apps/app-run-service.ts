import type { Logger } from 'pino';
import type { AgentDispatcher } from '../../engines/media/index.js';
import type {
  AppDebugResponse,
  AppRunNodePadValueParam,
  CreateAppRunFromGraphRequest,
  CreateAppRunRequest,
  CreateAppRunResponse,
} from '../../../contract/app-runs.js';
import { clientPadValue } from '../../../contract/graph/pad-values.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../../errors/api-error.js';
import type { Principal } from '../../kernel/principal.js';
import type { Store } from '../../store/database.js';
import { DocumentStore } from '../../store/document-store.js';
import { newId } from '../../store/ids.js';
import type { AppRunHost, AppRunStopReason } from '../../graph/app-run-host.js';
import { platformNodeLibrary } from '../../graph/library/node-library.js';
import type { ResolvedGraph } from '../../graph/runtime/graph-runtime.js';
import { PropertySinkPad, PropertySourcePad, RuntimeSinkPad, RuntimeSourcePad } from '../../graph/runtime/pads.js';
import { pushPadValue } from '../../graph/runtime-api/pad-push.js';
import { applyOverrides } from '../../graph/validation/apply-overrides.js';
import { ownerOf, scopeOf } from '../access.js';
import { humanIdentityFor, type SessionRoom } from '../realtime/session-room.js';
import type { UsageService } from '../usage/usage-service.js';
import type { EventBus } from '../../kernel/event-bus.js';
import { HostedControl, HostUnavailableError } from '../hosted-control.js';
import { SessionKeeper, type SessionKeeperTiming } from '../realtime/session-keeper.js';
import type { ExpiredLease, SessionLeases } from '../realtime/session-leases.js';
import type { AppRunHandle } from '../../graph/app-run-host.js';
import type { RecordingStore } from '../recordings/recording-store.js';
import type { AppService } from './app-service.js';
import type { GraphChecker } from './graph-checker.js';

export const APP_RUN_KIND = 'app_run';

/** What another instance may ask of a run this one hosts. */
type RunCommand = { command: 'push'; node: string; pad: string; value: unknown } | { command: 'snapshot' } | { command: 'stop'; reason: AppRunStopReason };

/** A run as stored. */
interface AppRunData {
  app: string | null;
  version: number | null;
  status: 'running' | 'ended';
  publisher_metadata: Record<string, unknown> | null;
  started_at: string;
  ended_at: string | null;
  stop_reason: AppRunStopReason | null;
}

export interface AppRunServiceDependencies {
  store: Store;
  apps: AppService;
  checker: GraphChecker;
  host: AppRunHost;
  room: SessionRoom;
  usage: Pick<UsageService, 'record' | 'assertWithinLimit'>;
  logger: Logger;
  /** Reaches runs hosted by other instances (push, debug). */
  bus: EventBus;
  /** Leases of the runs this instance hosts (`kind: app_run`); when a host stops renewing, another ends its runs. */
  leases?: { leases: SessionLeases; timing: SessionKeeperTiming };
  /** Tells the humans in a run's room something (its `error` topic), from any instance. */
  tellRoom?: (runId: string, message: string) => Promise<void>;
  /** How often a live run checks its human's `conversational_seconds` limit (default 2 s). */
  limitCheckMs?: number;
  /** LiveKit Agents dispatch (`media.dispatcher`), for runs that name workers (`livekit_agents`). */
  dispatcher?: AgentDispatcher;
  /** The runs' recordings (`recording: true`; decision 0122): served and deleted with their run. */
  recordings?: RecordingStore;
}

/**
 * App runs: `POST /v1/app/run` and `/v1/app/run_from_graph` check the graph, apply `overrides`, open a room
 * named after the run, start the graph in it as the agent (this instance hosts it) and answer the human's
 * connection details. `push_pad_value` and `debug` reach the live run. A run ends when everyone left, on a
 * failure, at shutdown, or when its human's `conversational_seconds` run out; its seconds are recorded then.
 */
export class AppRunService {
  private readonly runs: DocumentStore<AppRunData>;
  private readonly limitTimers = new Map<string, NodeJS.Timeout>();
  private readonly control: HostedControl<AppRunHandle, RunCommand, unknown>;
  /** Whose each run hosted here is (its usage is recorded for them when it ends). */
  private readonly principals = new Map<string, Principal>();
  private readonly keeper: SessionKeeper | undefined;

  constructor(private readonly dependencies: AppRunServiceDependencies) {
    this.runs = new DocumentStore(dependencies.store, APP_RUN_KIND);
    this.control = new HostedControl(dependencies.bus, dependencies.logger, {
      channel: 'app.run',
      describe: (id) => `app run '${id}'`,
      execute: async (handle, command) => {
        switch (command.command) {
          case 'push':
            pushPadValue(handle.runtime, command.node, command.pad, command.value);
            return null;
          case 'snapshot':
            return snapshotOf(handle);
          case 'stop':
            await handle.stop(command.reason);
            return null;
        }
      },
    });
    const leases = dependencies.leases;
    this.keeper = leases && new SessionKeeper(leases.leases, leases.timing, (lost) => this.endLost(lost), dependencies.logger);
  }

  /** Starts renewing this instance's run leases and ending runs whose host was lost (server start). */
  keepLeases(): void {
    this.keeper?.start();
  }

  /** A run whose host stopped renewing its lease: marked ended (`host_lost`), the humans told, the room closed. */
  private async endLost(lease: ExpiredLease): Promise<void> {
    await this.endUnhosted(lease.project, lease.sessionId, `instance ${lease.instance} stopped renewing its lease`, lease.renewedAt);
  }

  /**
   * Ends a run no instance hosts any more as `host_lost`, charged to the run's human up to `aliveUntil` (its
   * lease's last renewal: the last time it was known to run), not up to now.
   */
  private async endUnhosted(project: string, runId: string, detail: string, aliveUntil: string | undefined): Promise<void> {
    const run = await this.runs.find(runId, { project, human: null, includeGlobal: false });
    const principal: Principal = { project, kind: 'key', human: run?.human ?? null, credentialId: 'lease-keeper' };
    await this.dependencies.tellRoom?.(runId, 'The server running this app stopped: the run has ended.').catch(() => undefined);
    await this.finish(principal, runId, 'host_lost', detail, aliveUntil ? new Date(aliveUntil) : undefined);
  }

  async create(principal: Principal, input: CreateAppRunRequest, options: { fallbackMediaUrl?: string } = {}): Promise<CreateAppRunResponse> {
    const reused = input.run_id ? await this.reuse(principal, input.run_id, options) : undefined;
    if (reused) return reused;
    const app = await this.dependencies.apps.runnable(principal, input.app, input.version);
    const resolved = await this.dependencies.checker.check(principal, 'graph', app.graph);
    return this.launch(
      principal,
      resolved,
      {
        app: app.id,
        version: app.version,
        runId: input.run_id,
        overrides: input.overrides,
        metadata: input.publisher_metadata,
        workers: input.livekit_agents,
        recording: input.recording,
      },
      options,
    );
  }

  async createFromGraph(principal: Principal, input: CreateAppRunFromGraphRequest, options: { fallbackMediaUrl?: string } = {}): Promise<CreateAppRunResponse> {
    const reused = input.run_id ? await this.reuse(principal, input.run_id, options) : undefined;
    if (reused) return reused;
    const resolved = await this.dependencies.checker.check(principal, 'graph', input.graph);
    return this.launch(
      principal,
      resolved,
      {
        app: null,
        version: null,
        runId: input.run_id,
        overrides: input.overrides,
        metadata: input.publisher_metadata,
        workers: input.livekit_agents,
        recording: input.recording,
      },
      options,
    );
  }

  /**
   * A live run of the caller's project with this id: its details for one more human. An ended run's id (or a
   * run nothing hosts any more, which ends now) answers 409: the id is taken.
   */
  private async reuse(principal: Principal, runId: string, options: { fallbackMediaUrl?: string }): Promise<CreateAppRunResponse | undefined> {
    const run = await this.runs.find(runId, scopeOf(principal));
    if (!run) return undefined;
    if (run.data.status === 'running' && !(await this.isHosted(runId)))
      await this.endUnhosted(principal.project, runId, 'no instance hosts it', await this.renewedAt(runId));
    else if (run.data.status === 'running') {
      const connection_details = await this.dependencies.room.open(runId, humanIdentityFor(principal.human), { fallbackUrl: options.fallbackMediaUrl });
      return { app_run: this.toAppRun(run.id, run.data), connection_details };
    }
    throw new ConflictError(`app run '${runId}' has ended; a new run needs another run_id`);
  }

  /** When the run's lease was last renewed, if it still has one. */
  private async renewedAt(runId: string): Promise<string | undefined> {
    return this.dependencies.leases?.leases.renewedAt(runId);
  }

  private async launch(
    principal: Principal,
    resolved: ResolvedGraph,
    run: {
      app: string | null;
      version: number | null;
      runId: string | undefined;
      overrides: CreateAppRunRequest['overrides'];
      metadata: Record<string, unknown> | undefined;
      workers: CreateAppRunRequest['livekit_agents'];
      recording: boolean | undefined;
    },
    options: { fallbackMediaUrl?: string },
  ): Promise<CreateAppRunResponse> {
    const workers = run.workers ?? [];
    const dispatcher = this.dependencies.dispatcher;
    for (const worker of workers) {
      if (!dispatcher || dispatcher.hasWorker(worker.agent_name) === false) {
        throw new HostUnavailableError(`no LiveKit Agents worker named '${worker.agent_name}' is registered with the media endpoint (its /agent socket)`);
      }
    }
    const document = applyOverrides(
      resolved.document,
      resolved.subgraphs,
      (run.overrides ?? []).map((override) => ({ node: override.node, pad: override.pad, value: override.value.value })),
      platformNodeLibrary,
    );
    await this.dependencies.usage.assertWithinLimit(principal.project, principal.human, 'conversational_seconds');
    const runId = run.runId ?? newId('run');
    const data: AppRunData = {
      app: run.app,
      version: run.version,
      status: 'running',
      publisher_metadata: run.metadata ?? null,
      started_at: new Date().toISOString(),
      ended_at: null,
      stop_reason: null,
    };
    await this.dependencies.store.transaction(async (transaction) => {
      await this.runs.insert({ id: runId, project: principal.project, human: ownerOf(principal), name: run.app ?? 'graph', data }, transaction);
      await this.dependencies.leases?.leases.take(transaction, runId, principal.project);
    });
    // One identity for the human's token and the recording's left channel (a guest's is random).
    const humanIdentity = humanIdentityFor(principal.human);
    const connection_details = await this.dependencies.room.open(runId, humanIdentity, { fallbackUrl: options.fallbackMediaUrl });
    try {
      const handle = await this.dependencies.host.start(
        {
          runId,
          principal,
          graph: { document, subgraphs: resolved.subgraphs },
          publisherMetadata: run.metadata,
          recording: run.recording === true ? { humanIdentity } : undefined,
        },
        { stopped: (reason, detail) => void this.finish(principal, runId, reason, detail) },
      );
      await this.control.host(runId, handle, principal.project);
      this.principals.set(runId, principal);
      // The workers' agents join next to the graph; they leave when the run's room closes.
      for (const worker of workers)
        await dispatcher!.dispatch({ room: runId, agentName: worker.agent_name, ...(worker.metadata !== undefined ? { metadata: worker.metadata } : {}) });
    } catch (error) {
      await this.finish(principal, runId, 'failed', error instanceof Error ? error.message : String(error));
      throw error;
    }
    this.watchLimit(principal, runId);
    return { app_run: this.toAppRun(runId, data), connection_details };
  }

  private toAppRun(id: string, data: AppRunData): CreateAppRunResponse['app_run'] {
    return { id, ...(data.app ? { app: data.app } : {}), ...(data.version !== null ? { version: data.version } : {}) };
  }

  /** Ends the run when its human's conversational seconds, counting this run's so far, are used up. */
  private watchLimit(principal: Principal, runId: string): void {
    const timer = setInterval(() => {
      const handle = this.dependencies.host.get(runId);
      if (!handle) return;
      const seconds = (Date.now() - handle.startedAt) / 1000;
      this.dependencies.usage.assertWithinLimit(principal.project, principal.human, 'conversational_seconds', seconds).catch(async () => {
        handle.tell('The usage limit (conversational_seconds) is reached: the run ends.');
        await handle.stop('usage_limit_exceeded');
        await this.finish(principal, runId, 'usage_limit_exceeded');
      });
    }, this.dependencies.limitCheckMs ?? 2000);
    timer.unref();
    this.limitTimers.set(runId, timer);
  }

  /**
   * Marks the run ended and records its conversational seconds (once), up to now or, for a run whose host was lost,
   * up to `aliveUntil`.
   */
  private async finish(principal: Principal, runId: string, reason: AppRunStopReason, detail?: string, aliveUntil?: Date): Promise<void> {
    clearInterval(this.limitTimers.get(runId));
    this.limitTimers.delete(runId);
    await this.control.release(runId);
    this.principals.delete(runId);
    await this.dependencies.leases?.leases
      .release(runId)
      .catch((error: unknown) => this.dependencies.logger.error({ err: error, run: runId }, 'the run lease was not released'));
    let endedAt = new Date();
    let seconds = 0;
    const updated = await this.runs
      .update(runId, scopeOf(principal), (current) => {
        if (current.data.status === 'ended') return current.data;
        const startedAt = Date.parse(current.data.started_at);
        if (aliveUntil && aliveUntil.getTime() < endedAt.getTime()) endedAt = new Date(Math.max(startedAt, aliveUntil.getTime()));
        seconds = Math.max(0, (endedAt.getTime() - startedAt) / 1000);
        return { ...current.data, status: 'ended', ended_at: endedAt.toISOString(), stop_reason: reason };
      })
      .catch((error: unknown) => this.dependencies.logger.error({ err: error, run: runId }, 'the run was not marked ended'));
    if (updated && seconds > 0) {
      await this.dependencies.usage
        .record(principal, 'conversational_seconds', Math.round(seconds * 1000) / 1000, { app_run: runId, stop_reason: reason, ...(detail ? { detail } : {}) })
        .catch((error: unknown) => this.dependencies.logger.error({ err: error, run: runId }, "the run's conversational seconds were not recorded"));
    }
    await this.dependencies.room.close(runId).catch(() => undefined);
  }

  /**
   * Whether an instance hosts the run: this one, or the holder of an unexpired lease that still listens for the
   * run's commands (a killed instance's lease outlives it by up to its lifetime).
   */
  private async isHosted(runId: string): Promise<boolean> {
    if (this.control.hosts(runId)) return true;
    const leases = this.dependencies.leases?.leases;
    if (!leases || (await leases.holder(runId)) === undefined) return false;
    return this.control.reachable(runId);
  }

  /** A running run of the caller's project, hosted somewhere; 404 when absent or ended. */
  private async live(principal: Principal, runId: string): Promise<void> {
    const run = await this.runs.find(runId, scopeOf(principal));
    if (!run) throw new NotFoundError(`app run '${runId}' not found`);
    if (run.data.status !== 'running') throw new NotFoundError(`app run '${runId}' has ended`);
    if (!(await this.isHosted(runId))) {
      // Its host is gone and nobody reaped it yet: end it now.
      await this.endUnhosted(principal.project, runId, 'no instance hosts it', await this.renewedAt(runId));
      throw new NotFoundError(`app run '${runId}' has ended (its server instance stopped)`);
    }
  }

  /** Whether this instance hosts the run now. */
  hosts(runId: string): boolean {
    return this.control.hosts(runId);
  }

  /** `POST /v1/app/run/{run}/push_pad_value`. */
  async pushPadValue(principal: Principal, runId: string, param: AppRunNodePadValueParam): Promise<void> {
    await this.live(principal, runId);
    await this.control.send(runId, { command: 'push', node: param.node, pad: param.pad, value: param.value.value });
  }

  /** `POST /v1/app/debug`: the run's graph with every property pad's live value, and a way into its room. */
  async debug(principal: Principal, runId: string, options: { fallbackMediaUrl?: string } = {}): Promise<AppDebugResponse> {
    await this.live(principal, runId);
    const graph = (await this.control.send(runId, { command: 'snapshot' })) as AppDebugResponse['graph'];
    const connection_details = await this.dependencies.room.open(runId, `debug-${newId('observer').slice(-12)}`, { fallbackUrl: options.fallbackMediaUrl });
    return { graph, connection_details };
  }

  /** `GET /v1/app/run/{run}/recording`: the run's WAV; 404 while there is none (not asked for, still running, or deleted). */
  async recording(principal: Principal, runId: string): Promise<Response> {
    if (!(await this.runs.find(runId, scopeOf(principal)))) throw new NotFoundError(`app run '${runId}' not found`);
    const row = await this.dependencies.recordings?.find(principal.project, runId);
    if (!row) throw new NotFoundError(`app run '${runId}' has no recording (started without \`recording: true\`, still running, or deleted)`);
    const headers = {
      'content-type': row.content_type,
      'content-disposition': `attachment; filename="${runId}.wav"`,
      'x-recording-duration-ms': String(row.duration_ms),
    };
    return new Response(new Uint8Array(row.audio), { headers });
  }

  /** `DELETE /v1/app/run/{run}`: an ended run and its recording, in one transaction (400 while the run goes on). */
  async delete(principal: Principal, runId: string): Promise<void> {
    const run = await this.runs.find(runId, scopeOf(principal));
    if (!run) throw new NotFoundError(`app run '${runId}' not found`);
    if (run.data.status !== 'ended') throw new BadRequestError(`app run '${runId}' is running; it can be deleted once it ended (everyone left the room)`);
    await this.dependencies.store.transaction(async (transaction) => {
      if (!(await this.runs.delete(runId, scopeOf(principal), {}, transaction))) throw new NotFoundError(`app run '${runId}' not found`);
      await this.dependencies.recordings?.delete(principal.project, runId, transaction);
    });
  }

  /** Ends every run hosted here (shutdown). */
  async close(): Promise<void> {
    await this.keeper?.stop();
    for (const timer of this.limitTimers.values()) clearInterval(timer);
    this.limitTimers.clear();
    // Runs hosted here end as server_shutdown (recorded, leases released, humans told) while the store is open.
    await Promise.all(
      this.control.hostedIds().map(async ({ id }) => {
        const handle = this.control.handle(id);
        const principal = this.principals.get(id);
        handle?.tell('The server is shutting down: the run has ended.');
        await handle?.stop('server_shutdown');
        if (principal) await this.finish(principal, id, 'server_shutdown');
      }),
    );
    await this.dependencies.host.close();
    await this.control.close();
  }
}

/** A run's graph with every property pad's live value (JSON, as `POST /v1/app/debug` answers it). */
function snapshotOf(handle: AppRunHandle): AppDebugResponse['graph'] {
  const nodes = [...handle.runtime.nodes.values()].map((node) => ({
    id: node.id,
    type: node.type,
    pads: [...node.pads.values()].map((pad) => ({
      id: pad.id,
      group: pad.group,
      type: pad.kind,
      allowed_types: pad.types,
      value: pad instanceof PropertySinkPad || pad instanceof PropertySourcePad ? (clientPadValue(pad.value, pad.types) ?? null) : null,
      next_pads: pad instanceof RuntimeSourcePad ? pad.next.map((sink) => ({ node: sink.owner.id, pad: sink.id })) : [],
      previous_pad: pad instanceof RuntimeSinkPad && pad.previous ? { node: pad.previous.owner.id, pad: pad.previous.id } : null,
    })),
  }));
  return JSON.parse(JSON.stringify({ nodes, portals: [] })) as AppDebugResponse['graph'];
}
