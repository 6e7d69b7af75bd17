import { sql } from 'kysely';
import type { z } from 'zod';
import type { PartnerAvatarSessionStartRequest } from '../../../contract/partner.js';
import type { RealtimeSessionStartResponse } from '../../../contract/realtime.js';
import type { Voice } from '../../../contract/voices.js';
import { BadRequestError, NotFoundError } from '../../../errors/api-error.js';
import type { ServerConfig } from '../../kernel/config.js';
import type { Store } from '../../store/database.js';
import { documentFromRow } from '../../store/document-store.js';
import { found, ownerOf } from '../access.js';
import type { Principal } from '../../kernel/principal.js';
import { builtInLlms, OFFLINE_LLM_ID } from '../llms/built-in-llms.js';
import type { VoiceService } from '../voices/voice-service.js';
import { AgentUnavailableError } from './agent-control.js';
import { REALTIME_SESSION_KIND, RealtimeSessionRepository, type RealtimeSessionDocument } from './realtime-session-repository.js';
import type { RealtimeSessionService, StartOptions } from './realtime-session-service.js';
import { RoomDataError, sendRoomData, type RoomDataMedia } from './room-data.js';
import { AVATAR_ACTION_TOPIC } from '../../../contract/wire.js';

type PartnerStart = z.output<typeof PartnerAvatarSessionStartRequest>;

/** The partner whose avatar sessions these are (`_extra.partner` of every such session). */
export const PARTNER_A = 'partner_a';
/** How many recent actions a session keeps in `_extra.actions`. */
export const AVATAR_ACTION_LOG_SIZE = 20;

export interface PartnerAvatarDependencies {
  store: Store;
  config: Pick<ServerConfig, 'llm'>;
  voices: Pick<VoiceService, 'list' | 'retrieve'>;
  media: RoomDataMedia;
  realtime: Pick<RealtimeSessionService, 'start'>;
}

/**
 * The LLM of partner sessions (the partner cannot choose one): the first configured hosted built-in
 * (OpenAI, then Ollama), else the offline model.
 */
export function partnerLlmId(config: ServerConfig['llm']): string {
  return builtInLlms(config).find((llm) => llm.id !== OFFLINE_LLM_ID)?.id ?? OFFLINE_LLM_ID;
}

/**
 * Partner avatar sessions (`/v1/partner_a/session/avatar_a*`): realtime sessions started through
 * {@link RealtimeSessionService} with the partner's fixed LLM and its avatar data in `_extra`, and avatar
 * actions published into the session's room. One open session per conversation and caller
 * (docs/decisions/0066-partner-avatar-sessions.md).
 *
 * @example
 * const { session } = await services.partnerAvatars.start(principal, { conversation_id: 'c1', avatar_agent_id: 'a7', config, environment: 'production' });
 * await services.partnerAvatars.action(principal, session.id, 'wave');
 */
export class PartnerAvatarService {
  private readonly sessions: RealtimeSessionRepository;

  constructor(private readonly dependencies: PartnerAvatarDependencies) {
    this.sessions = new RealtimeSessionRepository(dependencies.store);
  }

  async start(principal: Principal, request: PartnerStart, options: StartOptions = {}): Promise<RealtimeSessionStartResponse> {
    const { config } = request;
    const voiceOverride = await this.voiceOf(principal, config.generative.voice_override, request.tts);
    await this.assertNoOpenSession(principal, request.conversation_id);
    const avatar =
      request.avatar_agent_id !== undefined ? { avatar_agent_id: request.avatar_agent_id } : { avatar_agent_image_url: request.avatar_agent_image_url! };
    return this.dependencies.realtime.start(
      principal,
      {
        config: {
          general: config.general,
          input: { interruptable: config.input.interruptable, parallel_listening: false },
          output: {
            stream_transcript: config.output.stream_transcript,
            speech_synthesis_enabled: true,
            ...(config.output.answer_message !== undefined ? { answer_message: config.output.answer_message } : {}),
          },
          generative: { llm: partnerLlmId(this.dependencies.config.llm), ...(voiceOverride !== undefined ? { voice_override: voiceOverride } : {}) },
        },
        ...(request.simulated !== undefined ? { simulated: request.simulated } : {}),
        _extra: {
          partner: PARTNER_A,
          conversation_id: request.conversation_id,
          environment: request.environment,
          ...avatar,
          ...(request.tts !== undefined ? { tts: request.tts } : {}),
        },
      },
      options,
    );
  }

  /**
   * Publishes `{action, at}` on {@link AVATAR_ACTION_TOPIC} to everyone in the session's room and keeps it
   * in the session's `_extra.actions` (the last {@link AVATAR_ACTION_LOG_SIZE}). 404 when the caller cannot
   * see the session; 400 when it is not a partner avatar session or not in progress (simulated sessions never are).
   */
  async action(principal: Principal, id: string, action: string): Promise<void> {
    const stored = found(await this.sessions.find(principal, id), 'realtime session', id);
    if (stored.data._extra?.['partner'] !== PARTNER_A) {
      throw new BadRequestError(`realtime session '${id}' is not a partner avatar session (start one with POST /v1/partner_a/session/avatar_a)`);
    }
    if (stored.data.state !== 'in_progress') {
      const why = stored.data.simulated ? 'simulated sessions have no agent and are never in progress' : `state: ${stored.data.state}`;
      throw new BadRequestError(`realtime session '${id}' is not in progress (${why}); only the avatar of a live session can act`);
    }
    const at = new Date().toISOString();
    try {
      await sendRoomData(this.dependencies.media, id, AVATAR_ACTION_TOPIC, JSON.stringify({ action, at }));
    } catch (error) {
      if (error instanceof RoomDataError || error instanceof TypeError)
        throw new AgentUnavailableError(`the avatar action could not reach realtime session '${id}': ${error.message}`, error);
      throw error;
    }
    await this.sessions.update({ principal }, id, async (current) => withLoggedAction(current.data, { action, at }));
  }

  /**
   * The session's voice: `config.generative.voice_override`, or the catalogue voice of `tts`. Both given
   * must name the same voice. Unknown ids and tts pairs are 400s naming the field.
   */
  private async voiceOf(principal: Principal, voiceOverride: string | undefined, tts: PartnerStart['tts']): Promise<string | undefined> {
    if (tts === undefined) return voiceOverride; // The realtime service resolves it (400 naming config.generative.voice_override).
    const ttsVoice = await this.catalogueVoice(principal, tts);
    if (voiceOverride === undefined || voiceOverride === ttsVoice.id) return ttsVoice.id;
    try {
      await this.dependencies.voices.retrieve(principal, voiceOverride);
    } catch (error) {
      if (NotFoundError.isInstance(error))
        throw new BadRequestError(`config.generative.voice_override: no voice with id '${voiceOverride}' visible to the caller`);
      throw error;
    }
    throw new BadRequestError(
      `config.generative.voice_override ('${voiceOverride}') and tts (${tts.service}/${tts.voice}, voice '${ttsVoice.id}') name different voices; give one of them, or both naming the same voice`,
    );
  }

  /** The voice visible to the caller whose synthesis service is `tts.service` and whose engine voice or id is `tts.voice`. */
  private async catalogueVoice(principal: Principal, tts: NonNullable<PartnerStart['tts']>): Promise<Voice> {
    const services = new Set<string>();
    let page: string | undefined;
    do {
      const result = await this.dependencies.voices.list(principal, { page, pageSize: 100 });
      for (const voice of result.values) {
        if (voice.service) services.add(voice.service);
        if (voice.service === tts.service && (voice.voice === tts.voice || voice.id === tts.voice)) return voice;
      }
      page = result.next_page ?? undefined;
    } while (page !== undefined);
    if (!services.has(tts.service)) {
      throw new BadRequestError(`tts.service: no speech synthesis service '${tts.service}' (available: ${[...services].sort().join(', ')})`);
    }
    throw new BadRequestError(`tts.voice: service '${tts.service}' has no voice '${tts.voice}' visible to the caller (see GET /v1/voice/list)`);
  }

  /** 400 when the caller already has a partner session of this conversation that has not ended. */
  private async assertNoOpenSession(principal: Principal, conversationId: string): Promise<void> {
    // A prefilter on the stored JSON (the conversation id as a JSON member); each candidate is then checked parsed.
    const fragment = `"conversation_id":${JSON.stringify(conversationId)}`.replace(/[\\%_]/g, (character) => `\\${character}`);
    const human = ownerOf(principal);
    let query = this.dependencies.store.db
      .selectFrom('documents')
      .selectAll()
      .where('kind', '=', REALTIME_SESSION_KIND)
      .where('project', '=', principal.project)
      .where('deleted_at', 'is', null)
      .where(sql<boolean>`data like ${`%${fragment}%`} escape '\\'`);
    query = human === null ? query.where('human', 'is', null) : query.where('human', '=', human);
    for (const row of await query.execute()) {
      const { data } = documentFromRow<RealtimeSessionDocument>(row);
      if (data._extra?.['partner'] === PARTNER_A && data._extra['conversation_id'] === conversationId && data.state !== 'ended') {
        throw new BadRequestError(
          `conversation_id: conversation '${conversationId}' already has partner avatar session '${row.id}' (state: ${data.state}); ` +
            'end it (POST /v1/realtime/{session}/end) before starting another',
        );
      }
    }
  }
}

function withLoggedAction(data: RealtimeSessionDocument, entry: { action: string; at: string }): RealtimeSessionDocument {
  const extra = data._extra ?? {};
  const previous = Array.isArray(extra['actions']) ? (extra['actions'] as unknown[]) : [];
  return { ...data, _extra: { ...extra, actions: [...previous, entry].slice(-AVATAR_ACTION_LOG_SIZE) } };
}
