import { z } from 'zod';
import { Context } from './contexts.js';
import { DateTime, FreeObject, Id } from './common.js';
import { defineRoute } from './define-route.js';
import { Llm } from './llms.js';
import { Persona } from './personas.js';
import { Scenario } from './scenarios.js';
import { ToolDefinition } from './tools.js';
import { Voice } from './voices.js';

/** Longest session time limit: one day (the spec states none; an unbounded session would hold media forever). */
export const MAX_SESSION_TIME_LIMIT_SECONDS = 24 * 3600;
/** Longest text the agent can be told to say at once (`answer_message`, speak). */
export const MAX_SPOKEN_TEXT_LENGTH = 10_000;
/** Most tool definitions one session may use. */
export const MAX_SESSION_TOOLS = 128;

export const RealtimeSessionState = z.enum(['not_started', 'in_progress', 'ended']).meta({ id: 'RealtimeSessionState' });
export type RealtimeSessionState = z.infer<typeof RealtimeSessionState>;

export const RealtimeSessionData = z
  .object({ type: z.enum(['caller_phone_number', 'agent_phone_number']), value: z.string() })
  .meta({ id: 'RealtimeSessionData' });
export type RealtimeSessionData = z.infer<typeof RealtimeSessionData>;

const TimeLimit = z
  .number()
  .int()
  .min(1)
  .max(MAX_SESSION_TIME_LIMIT_SECONDS)
  .nullable()
  .describe('Seconds the session may last; null for no limit. Exceeding it emits `realtime_session.time_limit_exceeded`.');
const SaveMessages = z.boolean().describe('Save messages to the context of the generative config, or to a new context when none is given.');
const Interruptable = z.boolean().describe('Whether the human can interrupt the agent while it speaks.');
const ParallelListening = z
  .boolean()
  .describe('Whether the agent keeps listening while speaking and answers again immediately; relevant only when `interruptable` is false.');
const StreamTranscript = z.boolean().describe('Stream the spoken transcript as it is spoken, versus sending it whole.');
const SpeechSynthesisEnabled = z.boolean().describe('Whether the agent speaks (false: text only).');
const AnswerMessage = z
  .string()
  .min(1)
  .max(MAX_SPOKEN_TEXT_LENGTH)
  .describe("The agent's first utterance when the human joins; when omitted the agent does not speak first.");
const ResourceId = Id;

/** Longest job metadata handed to a LiveKit Agents worker. */
export const MAX_WORKER_METADATA_LENGTH = 64 * 1024;

/**
 * Palaver extension of the general config: who the session's agent is. Palaver's own voice agent (the
 * default), or an agent of a LiveKit Agents worker registered under `agent_name` (on the embedded endpoint's
 * `/agent` socket, or with the LiveKit deployment), dispatched to the session's room. Fixed at start.
 */
export const RealtimeSessionAgent = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('builtin').describe("Palaver's voice agent: listens, thinks and speaks with the generative config.") }),
    z.object({
      type: z.literal('livekit_worker').describe("A LiveKit Agents worker's agent; the generative config only names the context its messages are saved to."),
      agent_name: z.string().min(1).max(128).describe('The `agentName` the worker registered with.'),
      metadata: z.string().max(MAX_WORKER_METADATA_LENGTH).optional().describe("Given to the worker's job (`ctx.job.metadata`)."),
    }),
  ])
  .meta({ id: 'RealtimeSessionAgent', description: "Palaver extension: the session's agent (default `builtin`)." });
export type RealtimeSessionAgent = z.infer<typeof RealtimeSessionAgent>;

export const RealtimeSessionGeneralConfig = z
  .object({
    time_limit_s: TimeLimit.default(null),
    save_messages: SaveMessages.default(true),
    agent: RealtimeSessionAgent.optional().describe('Palaver extension; when absent, the built-in agent. Cannot change after start.'),
    recording: z
      .boolean()
      .optional()
      .describe(
        'Palaver extension: record both sides of the conversation (the human on the left channel, the agent on the right; the built-in agent or a LiveKit Agents worker). ' +
          'Downloaded with `GET /v1/realtime/{session}/recording` once the session ended, deleted with the session. Never recorded unless true. Cannot change after start.',
      ),
  })
  .meta({ id: 'RealtimeSessionGeneralConfig' });

const TurnDetectionMode = z
  .enum(['fixed', 'adaptive'])
  .describe(
    "`fixed`: a set silence (`silence_ms`) ends the human's turn. `adaptive`: after a short pause the words heard so far decide the wait, between `min_wait_ms` (a finished question or statement) and `max_wait_ms` (a conjunction, a filler, an unfinished clause).",
  );
const WaitMs = (minimum: number, maximum: number) => z.number().int().min(minimum).max(maximum);

/**
 * Palaver extension of the input config: how the agent decides that the human has finished speaking. The
 * default is adaptive; `{ mode: 'fixed', silence_ms: 550 }` is the behaviour before it.
 */
export const RealtimeSessionTurnDetection = z
  .object({
    mode: TurnDetectionMode.default('adaptive'),
    silence_ms: WaitMs(100, 5000).default(550).describe('`fixed`: milliseconds of silence after speech that end the turn.'),
    min_wait_ms: WaitMs(160, 5000).default(200).describe('`adaptive`: the wait after the last speech when the words form a finished question or statement.'),
    max_wait_ms: WaitMs(160, 10_000)
      .default(1200)
      .describe('`adaptive`: the wait after the last speech when the words stop mid-clause (at least `min_wait_ms`).'),
    preemptive: z
      .boolean()
      .default(true)
      .describe(
        '`adaptive`: start preparing the answer at a pause; it is played only when the turn is confirmed, otherwise discarded (its tokens are still metered).',
      ),
  })
  .refine((value) => value.max_wait_ms >= value.min_wait_ms, { message: 'max_wait_ms must be at least min_wait_ms', path: ['max_wait_ms'] })
  .meta({ id: 'RealtimeSessionTurnDetection', description: "Palaver extension: how the end of the human's turn is detected." });
export type RealtimeSessionTurnDetection = z.infer<typeof RealtimeSessionTurnDetection>;

export const RealtimeSessionInputConfig = z
  .object({
    interruptable: Interruptable.default(true),
    parallel_listening: ParallelListening.default(false),
    turn_detection: RealtimeSessionTurnDetection.optional().describe('Palaver extension; when absent, the defaults of each field (adaptive).'),
  })
  .meta({ id: 'RealtimeSessionInputConfig' });

export const RealtimeSessionOutputConfig = z
  .object({
    stream_transcript: StreamTranscript.default(true),
    speech_synthesis_enabled: SpeechSynthesisEnabled.default(true),
    answer_message: AnswerMessage.optional(),
  })
  .meta({ id: 'RealtimeSessionOutputConfig' });

/** The generative section as answered: the resolved objects, not their ids. */
export const RealtimeSessionGenerativeConfig = z
  .object({
    llm: Llm,
    context: Context,
    tool_definitions: z.array(ToolDefinition),
    voice_override: Voice.optional(),
    persona: Persona.optional(),
    scenario: Scenario.optional(),
    _extra: FreeObject.optional(),
  })
  .meta({ id: 'RealtimeSessionGenerativeConfig' });

/**
 * The LLM a worker-run session names when its start request leaves it out: the built-in offline model, present on
 * every server. The worker's agent never uses it (the worker owns its behaviour).
 */
export const WORKER_SESSION_LLM = 'builtin-offline';

const generativeFields = {
  voice_override: ResourceId.optional().describe("Voice id; overrides the persona's voice."),
  persona: ResourceId.optional().describe('Persona id.'),
  scenario: ResourceId.optional().describe('Scenario id.'),
  context: ResourceId.optional().describe('Context id; a new context is created when unspecified.'),
  tool_definitions: z.array(ResourceId).max(MAX_SESSION_TOOLS).optional().describe('Tool definition ids.'),
  _extra: FreeObject.optional(),
};

export const RealtimeSessionGenerativeConfigCreate = z
  .object({
    llm: ResourceId.optional().describe(
      `LLM id. Required for the built-in agent; a session whose \`general.agent\` is a LiveKit Agents worker may leave it out (Palaver extension, default \`${WORKER_SESSION_LLM}\`).`,
    ),
    ...generativeFields,
  })
  .meta({ id: 'RealtimeSessionGenerativeConfigCreate' });

export const RealtimeSessionGenerativeConfigUpdate = z
  .object({ llm: ResourceId.optional().describe('LLM id.'), ...generativeFields })
  .meta({ id: 'RealtimeSessionGenerativeConfigUpdate' });

/** RealtimeSessionConfig (response form). */
export const RealtimeSessionConfig = z
  .object({
    general: RealtimeSessionGeneralConfig,
    input: RealtimeSessionInputConfig,
    generative: RealtimeSessionGenerativeConfig,
    output: RealtimeSessionOutputConfig,
  })
  .meta({ id: 'RealtimeSessionConfig' });
export type RealtimeSessionConfig = z.infer<typeof RealtimeSessionConfig>;

const WORKER_OPTIONAL = 'Required for the built-in agent. Palaver extension: a session whose `general.agent` is a LiveKit Agents worker may leave it out';

/**
 * RealtimeSessionConfigCreate: all four sections are required and their fields have defaults, as the API
 * specifies. Palaver extension (decision 0085): when `general.agent` is a LiveKit Agents worker, `input`,
 * `output`, `generative` and `generative.llm` may be left out, since that agent never reads them; they are
 * filled with their defaults (`generative.llm`: {@link WORKER_SESSION_LLM}). A built-in session missing one is a
 * 400 naming it.
 */
export const RealtimeSessionConfigCreate = z
  .object({
    general: RealtimeSessionGeneralConfig,
    input: RealtimeSessionInputConfig.optional().describe(`${WORKER_OPTIONAL} (default: every field's default).`),
    generative: RealtimeSessionGenerativeConfigCreate.optional().describe(`${WORKER_OPTIONAL} (default: \`{"llm": "${WORKER_SESSION_LLM}"}\`, a new context).`),
    output: RealtimeSessionOutputConfig.optional().describe(`${WORKER_OPTIONAL} (default: every field's default).`),
  })
  .superRefine((config, context) => {
    if (config.general?.agent?.type === 'livekit_worker') return;
    const missing = 'expected object, received undefined: required unless `general.agent` is a LiveKit Agents worker';
    for (const section of ['input', 'generative', 'output'] as const) {
      if (config[section] === undefined) context.addIssue({ code: 'custom', path: [section], message: missing });
    }
    if (config.generative && config.generative.llm === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['generative', 'llm'],
        message: 'expected string, received undefined: the LLM id is required unless `general.agent` is a LiveKit Agents worker',
      });
    }
  })
  .transform(({ general, input, generative, output }) => ({
    general,
    input: input ?? RealtimeSessionInputConfig.parse({}),
    generative: { ...generative, llm: generative?.llm ?? WORKER_SESSION_LLM },
    output: output ?? RealtimeSessionOutputConfig.parse({}),
  }))
  .meta({
    id: 'RealtimeSessionConfigCreate',
    description:
      'All four sections are required for the built-in agent. Palaver extension: when `general.agent` is a LiveKit Agents worker, ' +
      `\`input\`, \`output\`, \`generative\` and \`generative.llm\` may be left out and get their defaults (\`generative.llm\`: \`${WORKER_SESSION_LLM}\`); the worker's agent never reads them.`,
  });
export type RealtimeSessionConfigCreate = z.input<typeof RealtimeSessionConfigCreate>;

/** RealtimeSessionConfigUpdate: every section and field is optional; only what is sent changes. */
export const RealtimeSessionConfigUpdate = z
  .object({
    general: z
      .object({ time_limit_s: TimeLimit.optional(), save_messages: SaveMessages.optional() })
      .meta({ id: 'RealtimeSessionGeneralConfigUpdate' })
      .optional(),
    input: z
      .object({
        interruptable: Interruptable.optional(),
        parallel_listening: ParallelListening.optional(),
        turn_detection: RealtimeSessionTurnDetection.optional(),
      })
      .meta({ id: 'RealtimeSessionInputConfigUpdate' })
      .optional(),
    generative: RealtimeSessionGenerativeConfigUpdate.optional(),
    output: z
      .object({
        stream_transcript: StreamTranscript.optional(),
        speech_synthesis_enabled: SpeechSynthesisEnabled.optional(),
        answer_message: AnswerMessage.optional(),
      })
      .meta({ id: 'RealtimeSessionOutputConfigUpdate' })
      .optional(),
  })
  .meta({ id: 'RealtimeSessionConfigUpdate' });
export type RealtimeSessionConfigUpdate = z.infer<typeof RealtimeSessionConfigUpdate>;

export const RealtimeSession = z
  .object({
    id: z.string(),
    state: RealtimeSessionState,
    created_at: DateTime,
    project: z.string(),
    simulated: z.boolean(),
    config: RealtimeSessionConfig,
    data: z.array(RealtimeSessionData),
    ended_at: DateTime.optional(),
    human: z.string().optional(),
    _extra: FreeObject.optional().describe('Internal data.'),
  })
  .meta({ id: 'RealtimeSession' });
export type RealtimeSession = z.infer<typeof RealtimeSession>;

export const RealtimeSessionConnectionDetails = z
  .object({
    url: z.string().describe('LiveKit URL of the realtime media connection.'),
    token: z.string().describe("LiveKit access token (JWT) for this session's room."),
  })
  .meta({ id: 'RealtimeSessionConnectionDetails' });
export type RealtimeSessionConnectionDetails = z.infer<typeof RealtimeSessionConnectionDetails>;

export const RealtimeSessionStartResponse = z
  .object({ session: RealtimeSession, connection_details: RealtimeSessionConnectionDetails })
  .meta({ id: 'RealtimeSessionStartResponse' });
export type RealtimeSessionStartResponse = z.infer<typeof RealtimeSessionStartResponse>;

export const RealtimeSessionStartRequest = z
  .object({
    config: RealtimeSessionConfigCreate,
    simulated: z.boolean().optional().describe('A simulated session (for tests); no real media.'),
    _extra: FreeObject.optional().describe('Data for partner integrations.'),
  })
  .meta({ id: 'RealtimeSessionStartRequest' });
export type RealtimeSessionStartRequest = z.input<typeof RealtimeSessionStartRequest>;

export const RealtimeSessionSpeakRequest = z
  .object({ text: z.string().min(1).max(MAX_SPOKEN_TEXT_LENGTH).describe('What the agent says now.') })
  .meta({ id: 'RealtimeSessionSpeakRequest' });

/** The realtime session list: `next_page` is optional on this list (spec part 4). */
export const RealtimeSessionList = z
  .object({ values: z.array(RealtimeSession), total_count: z.number().int(), next_page: z.string().nullable().optional() })
  .meta({ id: 'RealtimeSessionList' });

/** One agent a session can choose with `config.general.agent` (Palaver extension). */
export const RealtimeAgentChoice = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('builtin').describe("Palaver's voice agent, always available.") }),
    z.object({
      type: z.literal('livekit_worker'),
      agent_name: z.string().describe('The `agentName` its workers registered with; `agent_name` of `general.agent`.'),
      workers: z.number().int().min(1).describe('How many workers of this name are registered.'),
      available: z.boolean().describe('Whether at least one of them takes jobs now (not full).'),
    }),
  ])
  .meta({ id: 'RealtimeAgentChoice' });
export type RealtimeAgentChoice = z.infer<typeof RealtimeAgentChoice>;

export const RealtimeAgentChoices = z
  .object({
    values: z.array(RealtimeAgentChoice).describe('The built-in agent first, then the LiveKit Agents workers by name.'),
    workers_listed: z
      .boolean()
      .describe(
        'Whether the workers could be listed: false when the platform uses a LiveKit deployment, which cannot be asked; a session may still name a worker registered there.',
      ),
  })
  .meta({ id: 'RealtimeAgentChoices', description: 'Palaver extension: the agents a realtime session can choose.' });
export type RealtimeAgentChoices = z.infer<typeof RealtimeAgentChoices>;

const params = z.object({ session: Id });
const tag = 'Realtime sessions';

export const realtimeRoutes = {
  start: defineRoute({
    operationId: 'realtime.start',
    method: 'POST',
    path: '/v1/realtime/start',
    auth: 'K/B',
    tag,
    summary: 'Start a realtime agent session',
    request: { body: RealtimeSessionStartRequest },
    success: { kind: 'json', schema: RealtimeSessionStartResponse },
    errors: [404],
  }),
  update: defineRoute({
    operationId: 'realtime.update',
    method: 'POST',
    path: '/v1/realtime/{session}/update',
    auth: 'K/B',
    tag,
    summary: 'Change the configuration of a session',
    request: { params, body: RealtimeSessionConfigUpdate },
    success: { kind: 'json', schema: RealtimeSession },
    errors: [404],
  }),
  end: defineRoute({
    operationId: 'realtime.end',
    method: 'POST',
    path: '/v1/realtime/{session}/end',
    auth: 'K/B',
    tag,
    summary: 'End a session',
    request: { params },
    success: { kind: 'json', schema: RealtimeSession },
    errors: [404],
  }),
  retrieve: defineRoute({
    operationId: 'realtime.retrieve',
    method: 'GET',
    path: '/v1/realtime/{session}',
    auth: 'K/B',
    tag,
    summary: 'Get a session',
    request: { params },
    success: { kind: 'json', schema: RealtimeSession },
    errors: [404],
  }),
  list: defineRoute({
    operationId: 'realtime.list',
    method: 'GET',
    path: '/v1/realtime/list',
    auth: 'K/B',
    tag,
    summary: 'List sessions, newest first',
    request: {
      query: z.object({ page: z.string().min(1).optional().describe("Opaque token from a previous answer's `next_page`.") }),
    },
    success: { kind: 'json', schema: RealtimeSessionList },
  }),
  agents: defineRoute({
    operationId: 'realtime.agents',
    method: 'GET',
    path: '/v1/realtime/agents',
    auth: 'K/B',
    tag,
    summary: 'List the agents a session can choose: the built-in agent and the registered LiveKit Agents workers (Palaver extension)',
    success: { kind: 'json', schema: RealtimeAgentChoices },
  }),
  recording: defineRoute({
    operationId: 'realtime.recording',
    method: 'GET',
    path: '/v1/realtime/{session}/recording',
    auth: 'K/B',
    tag,
    summary:
      'Download the recording of a session started with `general.recording: true` (Palaver extension): a 16 kHz 16-bit stereo WAV, the human on the left channel, the agent on the right; 404 while the session runs, without recording, or deleted',
    request: { params },
    success: { kind: 'binary', contentTypes: ['audio/wav'] },
    errors: [404],
  }),
  delete: defineRoute({
    operationId: 'realtime.delete',
    method: 'DELETE',
    path: '/v1/realtime/{session}',
    auth: 'K/B',
    tag,
    summary: 'Delete an ended session and its recording (Palaver extension; 400 while the session is not ended: end it first)',
    request: { params },
    success: { kind: 'empty' },
    errors: [404],
  }),
  speak: defineRoute({
    operationId: 'realtime.speak',
    method: 'POST',
    path: '/v1/realtime/{session}/speak',
    auth: 'K',
    tag,
    summary: 'Make the agent of a live session say a text',
    request: { params, body: RealtimeSessionSpeakRequest },
    success: { kind: 'json', schema: RealtimeSession },
    errors: [404],
  }),
};
