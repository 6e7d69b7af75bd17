/**
 * The older Session resource (spec part 2, "Session (older form)"). The spec shows no operation on it,
 * so these schemas have no routes; they are documented as OpenAPI components for clients that still
 * read stored sessions of this form.
 */
import { z } from 'zod';
import { DateTime, FreeObject } from './common.js';
import { Persona } from './personas.js';
import { RealtimeSessionConnectionDetails } from './realtime.js';
import { Scenario } from './scenarios.js';

const SessionTimeLimit = z
  .number()
  .int()
  .min(1)
  .max(24 * 3600);

/** @deprecated Superseded by RealtimeSession. */
export const Session = z
  .object({
    id: z.string(),
    created_at: DateTime,
    project: z.string(),
    livekit_room: z.string(),
    metadata: FreeObject,
    persona: z.string().nullable(),
    scenario: z.string().nullable(),
    simulated: z.boolean(),
    state: z.enum(['not_started', 'in_progress', 'ended']),
    time_limit_s: z.number().nullable(),
    ended_at: DateTime.nullable().optional(),
    llm: z.string().nullable().optional(),
    voice_override: z.string().nullable().optional(),
  })
  .meta({ id: 'Session', deprecated: true });
export type Session = z.infer<typeof Session>;

/** @deprecated */
export const SessionMessage = z
  .object({
    id: z.string(),
    created_at: DateTime,
    session: z.string(),
    agent: z.boolean(),
    import_id: z.string().nullable(),
    speaking_ended_at: DateTime,
    deleted_at: DateTime.nullable().optional(),
    media: z.string().nullable().optional(),
    text: z.string().optional(),
  })
  .meta({ id: 'SessionMessage', deprecated: true });
export type SessionMessage = z.infer<typeof SessionMessage>;

/** @deprecated A prior turn replayed into a new session. */
export const HistoryMessage = z
  .object({
    role: z.enum(['assistant', 'system', 'user']),
    content: z.string().max(100_000),
    import_id: z.string().nullable().optional(),
  })
  .meta({ id: 'HistoryMessage', deprecated: true });
export type HistoryMessage = z.infer<typeof HistoryMessage>;

/** @deprecated */
export const SessionTimelineItem = z
  .object({ seconds: z.number().nonnegative().optional(), type: z.enum(['silence', 'agent', 'user']).optional() })
  .meta({ id: 'SessionTimelineItem', deprecated: true });
export type SessionTimelineItem = z.infer<typeof SessionTimelineItem>;

const startFields = {
  time_limit_s: SessionTimeLimit.optional(),
  voice_override: z.string().min(1).max(200).optional(),
  llm: z.string().min(1).max(200).optional(),
  persona: z.string().min(1).max(200).optional(),
  save_messages: z.boolean().default(true),
  _extra: FreeObject.optional(),
};

/** @deprecated Either a replayed `history` or a `scenario`, with the shared session settings. */
export const SessionStartRequest = z
  .union([
    z.object({ history: z.array(HistoryMessage).max(500), ...startFields }).meta({ id: 'SessionStartWithHistoryRequest' }),
    z.object({ scenario: z.string().min(1).max(200).optional(), ...startFields }).meta({ id: 'SessionStartWithScenarioRequest' }),
  ])
  .meta({ id: 'SessionStartRequest', deprecated: true });
export type SessionStartRequest = z.input<typeof SessionStartRequest>;

/** @deprecated */
export const SessionStartResponse = z
  .object({
    session: Session,
    connection_details: RealtimeSessionConnectionDetails,
    persona: Persona.optional(),
    scenario: Scenario.optional(),
  })
  .meta({ id: 'SessionStartResponse', deprecated: true });
export type SessionStartResponse = z.infer<typeof SessionStartResponse>;

/** @deprecated */
export const UpdateSessionRequest = z
  .object({ time_limit_s: SessionTimeLimit.optional(), voice_override: z.string().min(1).max(200).optional() })
  .meta({ id: 'UpdateSessionRequest', deprecated: true });
export type UpdateSessionRequest = z.infer<typeof UpdateSessionRequest>;

/** Every schema of this file, for documents that list components without routes. */
export const legacySessionSchemas = [
  Session,
  SessionMessage,
  HistoryMessage,
  SessionTimelineItem,
  SessionStartRequest,
  SessionStartResponse,
  UpdateSessionRequest,
];
