import type { Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type {
  RealtimeAgentChoices,
  RealtimeSession,
  RealtimeSessionConfigUpdate,
  RealtimeSessionStartRequest,
  RealtimeSessionStartResponse,
} from '../../../contract/realtime.js';
import { BadRequestError, NotFoundError, NotImplementedError } from '../../../errors/api-error.js';
import type { AgentSessionHandle, AgentSessionHost } from '../../kernel/ports/agent-session-host.js';
import type { EventBus } from '../../kernel/event-bus.js';
import type { MediaService } from '../../engines/media/index.js';
import type { Store } from '../../store/database.js';
import type { Database } from '../../store/tables.js';
import { newId } from '../../store/ids.js';
import type { Page, PageRequest } from '../../store/pagination.js';
import { found, ownerOf } from '../access.js';
import type { Principal } from '../../kernel/principal.js';
import type { ContextService } from '../contexts/context-service.js';
import type { RecordingStore } from '../recordings/recording-store.js';
import type { UsageService } from '../usage/usage-service.js';
import type { WebhookService } from '../webhooks/webhook-service.js';
import { AgentControl, AgentUnavailableError, type AgentControlOptions } from './agent-control.js';
import { agentChoices } from './agent-choices.js';
import { agentSessionEvents } from './agent-session-events.js';
import { GenerativeConfigResolver, type GenerativeSources } from './generative-config-resolver.js';
import { RealtimeSessionRepository, toRealtimeSession, type RealtimeSessionDocument, type StoredRealtimeSession } from './realtime-session-repository.js';
import { mergeSessionConfig } from './session-config-merge.js';
import { SessionLifecycle } from './session-lifecycle.js';
import { humanIdentityFor, SessionRoom } from './session-room.js';
import { SessionKeeper, type SessionKeeperTiming } from './session-keeper.js';
import type { ExpiredLease, SessionLeases } from './session-leases.js';

type StartRequest = z.output<typeof RealtimeSessionStartRequest>;

export interface RealtimeSessionServiceDependencies extends GenerativeSources {
  store: Store;
  logger: Logger;
  /** Carries update/end/speak to the instance hosting a session's agent. */
  bus: EventBus;
  usage: Pick<UsageService, 'assertWithinLimit'>;
  webhooks: Pick<WebhookService, 'enqueue'>;
  media: Pick<MediaService, 'transport' | 'createJoinToken' | 'clientUrl' | 'dispatcher'>;
  contexts: Pick<ContextService, 'retrieve' | 'createContext' | 'appendMessage'>;
  /** Runs the voice agents; undefined while no agent runtime is wired (non-simulated starts answer 501). */
  agents: AgentSessionHost | undefined;
  control?: AgentControlOptions;
  /**
   * Leases of the sessions whose agent runs here, and how they are kept: a session whose host stops renewing
   * is ended by another instance (or this one after a restart) with stop reason `host_lost`.
   */
  leases?: { leases: SessionLeases; timing: SessionKeeperTiming };
  /** The sessions' recordings (`general.recording`; decision 0112): served and deleted with their session. */
  recordings?: RecordingStore;
  /** Sends the human a message in the session's room (the wire protocol's `error` topic). */
  tellRoom?: (sessionId: string, message: string) => Promise<void>;
}

export interface StartOptions {
  /** The media URL to answer when the server is not listening on a socket (in-process use). */
  fallbackMediaUrl?: string | undefined;
  /**
   * The session's id, chosen by the caller (a new `rts_` id when absent): a SIP call answered by a session is placed
   * in the session's room before the session starts (`domain/sip/`).
   */
  id?: string;
  /** The room identity the human joins with (default: the human's own); a SIP caller's is `sip_<number>`. */
  humanIdentity?: string;
}

const RESOURCE = 'realtime session';

/**
 * Realtime agent sessions (`/v1/realtime/*`): validates and resolves the configuration, stores the session
 * with its state and events, opens its room, and starts, updates, tells to speak and stops its agent
 * through the {@link AgentSessionHost} seam. States move forward only: `not_started` -> `in_progress`
 * (the agent joined) -> `ended`. Simulated sessions get a room and a token but no agent.
 *
 * @example
 * const { session, connection_details } = await services.realtime.start(principal, {
 *   config: { general: {}, input: {}, output: {}, generative: { llm: 'builtin-offline' } },
 *   simulated: true,
 * });
 */
export class RealtimeSessionService {
  private readonly sessions: RealtimeSessionRepository;
  private readonly lifecycle: SessionLifecycle;
  private readonly resolver: GenerativeConfigResolver;
  private readonly room: SessionRoom;
  private readonly control: AgentControl;
  private readonly keeper: SessionKeeper | undefined;

  constructor(private readonly dependencies: RealtimeSessionServiceDependencies) {
    this.sessions = new RealtimeSessionRepository(dependencies.store);
    this.lifecycle = new SessionLifecycle(this.sessions, dependencies.webhooks);
    this.resolver = new GenerativeConfigResolver(dependencies);
    this.room = new SessionRoom(dependencies.media);
    this.control = new AgentControl(dependencies.bus, dependencies.logger, dependencies.control);
    const leases = dependencies.leases;
    this.keeper = leases && new SessionKeeper(leases.leases, leases.timing, (lost) => this.endLost(lost), dependencies.logger);
  }

  /** Starts renewing this instance's leases and ending sessions whose host was lost (server start). */
  keepLeases(): void {
    this.keeper?.start();
  }

  /** Ends the sessions of hosts that stopped renewing their lease now (the keeper does it periodically). */
  async reapLostSessions(): Promise<number> {
    return (await this.keeper?.reap()) ?? 0;
  }

  async start(principal: Principal, request: StartRequest, options: StartOptions = {}): Promise<RealtimeSessionStartResponse> {
    const { config } = request;
    const simulated = request.simulated ?? false;
    await this.dependencies.usage.assertWithinLimit(principal.project, principal.human, 'token_cnt');
    await this.dependencies.usage.assertWithinLimit(principal.project, principal.human, 'conversational_seconds');
    const human = ownerOf(principal);
    const resolved = await this.resolver.resolve(principal, config.generative, 'config.generative');
    if (resolved.context && config.general.save_messages) this.resolver.assertContextWritable(human, resolved.context, 'config.generative.context');
    const agents = this.dependencies.agents;
    if (!simulated && !agents) {
      throw new NotImplementedError(
        'POST /v1/realtime/start: no voice agent runtime is configured on this server yet, so a session with an agent cannot start; ' +
          'start it with `simulated: true` for a session and room without an agent',
      );
    }
    const context = resolved.context ?? (await this.resolver.newContext(principal, config.generative));
    const humanIdentity = options.humanIdentity ?? humanIdentityFor(human);
    const document: RealtimeSessionDocument = {
      state: 'not_started',
      simulated,
      config: {
        general: config.general,
        input: config.input,
        output: config.output,
        generative: {
          llm: resolved.llm!,
          context,
          tool_definitions: resolved.tool_definitions ?? [],
          ...(resolved.voice_override !== undefined ? { voice_override: resolved.voice_override } : {}),
          ...(resolved.persona !== undefined ? { persona: resolved.persona } : {}),
          ...(resolved.scenario !== undefined ? { scenario: resolved.scenario } : {}),
          ...(config.generative._extra !== undefined ? { _extra: config.generative._extra } : {}),
        },
      },
      data: [],
      ...(request._extra !== undefined ? { _extra: request._extra } : {}),
      human_identity: humanIdentity,
    };
    const stored = await this.dependencies.store.transaction(async (transaction) => {
      const inserted = await this.sessions.insert(principal, { id: options.id ?? newId('rts'), human, data: document }, transaction);
      await this.lifecycle.announceCreated(transaction, inserted);
      // This instance hosts the agent from the start: if it dies at any point, the lease expires and the session ends.
      if (!simulated) await this.dependencies.leases?.leases.take(transaction, inserted.id, principal.project);
      return inserted;
    });
    const { id } = stored;

    let connection: RealtimeSessionStartResponse['connection_details'];
    try {
      connection = await this.room.open(id, humanIdentity, { fallbackUrl: options.fallbackMediaUrl });
    } catch (error) {
      await this.abandon(principal, id, false);
      throw new AgentUnavailableError(`the room of realtime session '${id}' could not be opened: ${messageOf(error)}`, error);
    }
    if (simulated || !agents) return { session: await this.present(principal, stored), connection_details: connection };

    let handle: AgentSessionHandle;
    try {
      handle = await agents.start({ session: toRealtimeSession(stored), principal, humanIdentity }, this.eventsFor(stored, principal));
    } catch (error) {
      await this.abandon(principal, id, true);
      throw new AgentUnavailableError(`the agent of realtime session '${id}' could not start: ${messageOf(error)}`, error);
    }
    await this.control.host(handle, principal.project);
    const change = await this.lifecycle.moveTo({ project: principal.project }, id, 'in_progress');
    if (!change?.changed) {
      // Ended while its agent was starting (an end call, or the agent stopped at once): stop it now.
      await handle.stop('ended').catch((error: unknown) => this.warn(id, 'stopping the agent failed', error));
      await this.control.release(id);
    }
    const current = change?.current ?? toRealtimeSession(stored);
    return { session: await this.refreshContext(principal, current), connection_details: connection };
  }

  async update(principal: Principal, id: string, patch: RealtimeSessionConfigUpdate): Promise<RealtimeSession> {
    const before = found(await this.sessions.find(principal, id), RESOURCE, id);
    assertNotEnded(before);
    const resolved = patch.generative ? await this.resolver.resolve(principal, patch.generative, 'generative') : {};
    const result = await this.sessions.update({ principal }, id, async (current) => {
      assertNotEnded(current);
      const config = mergeSessionConfig(current.data.config, patch, resolved);
      if (config.general.save_messages && (resolved.context !== undefined || patch.general?.save_messages !== undefined)) {
        const field = resolved.context !== undefined ? 'generative.context' : 'general.save_messages';
        this.resolver.assertContextWritable(current.human, config.generative.context, field);
      }
      return { ...current.data, config };
    });
    const updated = found(result, RESOURCE, id).current;
    if (updated.data.state === 'in_progress') {
      // The stored configuration is what counts; an agent that cannot be reached is logged, not fatal.
      await this.control
        .send(id, { command: 'update', config: updated.data.config })
        .catch((error: unknown) => this.warn(id, 'the running agent did not take the new configuration', error));
    }
    return this.present(principal, updated);
  }

  /**
   * Ends the session (idempotent: an ended session is answered as it is). Its agent is stopped where it runs;
   * a session nobody hosts any more (its instance died) ends at once, without waiting for an answer.
   */
  async end(principal: Principal, id: string): Promise<RealtimeSession> {
    const leases = this.dependencies.leases?.leases;
    const hosted = leases ? (await leases.holder(id)) !== undefined : true;
    const change = found(
      await this.lifecycle.moveTo({ principal }, id, 'ended', { stopReason: 'ended', alongside: (transaction) => this.releaseLease(id, transaction) }),
      RESOURCE,
      id,
    );
    if (change.changed) {
      // A session ended while `not_started` may have an agent starting: `start` stops it when it sees `ended`.
      if (change.previous.state === 'in_progress' && (hosted || this.control.hosts(id))) {
        await this.control.send(id, { command: 'stop', reason: 'ended' }).catch((error: unknown) => this.warn(id, 'stopping the agent failed', error));
      }
      await this.room.close(id).catch((error: unknown) => this.warn(id, 'closing the room failed', error));
    }
    return this.refreshContext(principal, change.current);
  }

  /** The agents a session can choose (`general.agent`): the built-in one and the registered LiveKit Agents workers. */
  agents(): RealtimeAgentChoices {
    return agentChoices(this.dependencies.media.dispatcher);
  }

  async retrieve(principal: Principal, id: string): Promise<RealtimeSession> {
    return this.present(principal, found(await this.sessions.find(principal, id), RESOURCE, id));
  }

  /** The caller's sessions (every session of the project for an API key without a human), newest first. */
  async list(principal: Principal, page: PageRequest): Promise<Page<RealtimeSession>> {
    const result = await this.sessions.list(principal, page);
    return { ...result, values: await Promise.all(result.values.map((stored) => this.present(principal, stored))) };
  }

  /** The session's recording as a WAV answer; 404 while there is none (not asked for, not finished yet, or deleted). */
  async recording(principal: Principal, id: string): Promise<Response> {
    found(await this.sessions.find(principal, id), RESOURCE, id);
    const row = await this.dependencies.recordings?.find(principal.project, id);
    if (!row) throw new NotFoundError(`realtime session '${id}' has no recording (started without \`general.recording: true\`, still running, or deleted)`);
    const headers = {
      'content-type': row.content_type,
      'content-disposition': `attachment; filename="${id}.wav"`,
      'x-recording-duration-ms': String(row.duration_ms),
    };
    return new Response(new Uint8Array(row.audio), { headers });
  }

  /** Deletes an ended session with its recording (400 while it is not ended). */
  async delete(principal: Principal, id: string): Promise<void> {
    const stored = found(await this.sessions.find(principal, id), RESOURCE, id);
    if (stored.data.state !== 'ended')
      throw new BadRequestError(`realtime session '${id}' is ${stored.data.state}; end it first (POST /v1/realtime/${id}/end)`);
    await this.dependencies.store.transaction(async (transaction) => {
      found((await this.sessions.delete(principal, id, transaction)) ? stored : undefined, RESOURCE, id);
      await this.dependencies.recordings?.delete(principal.project, id, transaction);
    });
  }

  /** Makes the agent of a live session say `text` (400 when the session is not in progress). */
  async speak(principal: Principal, id: string, text: string): Promise<RealtimeSession> {
    const stored = found(await this.sessions.find(principal, id), RESOURCE, id);
    if (stored.data.state !== 'in_progress') {
      throw new BadRequestError(`realtime session '${id}' is not in progress (state: ${stored.data.state}); only the agent of a live session can speak`);
    }
    await this.control.send(id, { command: 'speak', text });
    return this.present(principal, stored);
  }

  /**
   * Server shutdown: ends every session whose agent runs here with stop reason `server_shutdown` (recorded with
   * its `state_changed` event, the human told in the room, the agent stopped, the lease released), then stops
   * the lease upkeep and the bus subscriptions.
   */
  async close(): Promise<void> {
    await this.keeper?.stop();
    await Promise.all(
      this.control.hostedSessions().map(async ({ sessionId: id, project }) => {
        const change = await this.lifecycle
          .moveTo({ project }, id, 'ended', { stopReason: 'server_shutdown', alongside: (transaction) => this.releaseLease(id, transaction) })
          .catch((error: unknown) => this.warn(id, 'recording the end at shutdown failed', error));
        if (change?.changed) await this.notifyRoom(id, 'The server is shutting down; this session has ended.');
        await this.control
          .send(id, { command: 'stop', reason: 'server_shutdown' })
          .catch((error: unknown) => this.warn(id, 'stopping the agent failed', error));
      }),
    );
    await this.control.close();
  }

  /** Ends a session whose host stopped renewing its lease (claimed by this instance). */
  private async endLost(lost: ExpiredLease): Promise<void> {
    const change = await this.lifecycle.moveTo({ project: lost.project }, lost.sessionId, 'ended', { stopReason: 'host_lost' });
    if (!change?.changed) return;
    // Where the room outlives the lost host (a LiveKit deployment, or a host that stalled and is still running
    // here) the human is told, its agent stopped, and the room closed.
    await this.notifyRoom(lost.sessionId, 'This session has ended: the server running its agent stopped responding.');
    if (this.control.hosts(lost.sessionId)) {
      await this.control
        .send(lost.sessionId, { command: 'stop', reason: 'host_lost' })
        .catch((error: unknown) => this.warn(lost.sessionId, 'stopping the agent failed', error));
    }
    await this.room.close(lost.sessionId).catch((error: unknown) => this.warn(lost.sessionId, 'closing the room failed', error));
  }

  private async notifyRoom(id: string, message: string): Promise<void> {
    await this.dependencies
      .tellRoom?.(id, message)
      .catch((error: unknown) => this.dependencies.logger.debug({ session: id, err: error }, 'realtime session: the room could not be told'));
  }

  private async releaseLease(id: string, transaction: Transaction<Database>): Promise<void> {
    await this.dependencies.leases?.leases.release(id, transaction);
  }

  private eventsFor(stored: StoredRealtimeSession, principal: Principal) {
    return agentSessionEvents(
      {
        store: this.dependencies.store,
        sessions: this.sessions,
        lifecycle: this.lifecycle,
        contexts: this.dependencies.contexts,
        webhooks: this.dependencies.webhooks,
        control: this.control,
        logger: this.dependencies.logger,
        releaseLease: (transaction) => this.releaseLease(stored.id, transaction),
      },
      { id: stored.id, project: principal.project },
      principal,
    );
  }

  /** Ends a session whose start failed after it was stored, and closes its room when it was opened. */
  private async abandon(principal: Principal, id: string, roomOpened: boolean): Promise<void> {
    await this.lifecycle.moveTo({ project: principal.project }, id, 'ended', {
      stopReason: 'failed',
      alongside: (transaction) => this.releaseLease(id, transaction),
    });
    if (roomOpened) await this.room.close(id).catch((error: unknown) => this.warn(id, 'closing the room failed', error));
  }

  private present(principal: Principal, stored: StoredRealtimeSession): Promise<RealtimeSession> {
    return this.refreshContext(principal, toRealtimeSession(stored));
  }

  /** The session with its context as it is now (the conversation grows while the session runs). */
  private async refreshContext(principal: Principal, session: RealtimeSession): Promise<RealtimeSession> {
    try {
      const context = await this.dependencies.contexts.retrieve(principal, session.config.generative.context.id);
      return { ...session, config: { ...session.config, generative: { ...session.config.generative, context } } };
    } catch (error) {
      if (NotFoundError.isInstance(error)) return session;
      throw error;
    }
  }

  private warn(id: string, what: string, error: unknown): void {
    this.dependencies.logger.warn({ session: id, err: error }, `realtime session: ${what}`);
  }
}

function assertNotEnded(stored: StoredRealtimeSession): void {
  if (stored.data.state === 'ended') {
    throw new BadRequestError(`realtime session '${stored.id}' has ended; its configuration can no longer change`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
