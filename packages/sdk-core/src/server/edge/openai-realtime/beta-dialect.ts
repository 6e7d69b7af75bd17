import type { RealtimeServerEvent } from '../../../contract/openai-realtime-events.js';
import type { RealtimeItem, RealtimeSessionObject } from '../../../contract/openai-realtime-session.js';

/**
 * The beta protocol of the Realtime API (`OpenAI-Beta: realtime=v1`, the `openai` package's `openai/beta/realtime/ws`),
 * translated at the edge to and from the GA events the session speaks: flat session fields (`modalities`, `voice`,
 * `input_audio_format`, `turn_detection`, `max_response_output_tokens`...) become the GA's `audio.input`/`audio.output`;
 * assistant content `text`/`audio` is `output_text`/`output_audio`; out, `response.output_audio.*` is
 * `response.audio.*`, `response.output_text.*` `response.text.*`, `conversation.item.added` `conversation.item.created`
 * (the GA's `conversation.item.done` has no beta twin). A beta field with no GA meaning is left as is, so the strict
 * contract refuses it by name.
 */
export interface RealtimeDialect {
  /** A client event as the GA contract reads it. */
  incoming(event: Record<string, unknown>): Record<string, unknown>;
  /** A server event as the client expects it, or undefined when its protocol has no such event. */
  outgoing(event: RealtimeServerEvent): object | undefined;
}

export const GA_DIALECT: RealtimeDialect = { incoming: (event) => event, outgoing: (event) => event };

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `pcm16` -> `audio/pcm` (24 kHz); the G.711 names -> theirs (`audio/pcmu`, `audio/pcma`). */
function gaFormat(format: unknown): unknown {
  if (format === 'pcm16') return { type: 'audio/pcm', rate: 24_000 };
  if (format === 'g711_ulaw') return { type: 'audio/pcmu' };
  if (format === 'g711_alaw') return { type: 'audio/pcma' };
  return format;
}

/** The beta name of a session's format. */
function betaFormat(format: RealtimeSessionObject['audio']['output']['format']): string {
  return format.type === 'audio/pcmu' ? 'g711_ulaw' : format.type === 'audio/pcma' ? 'g711_alaw' : 'pcm16';
}

function gaModalities(modalities: unknown): unknown {
  return Array.isArray(modalities) ? (modalities.includes('audio') ? ['audio'] : ['text']) : modalities;
}

/** Moves `from` fields of `source` to `to` names in `target`, transformed. */
function move(source: Fields, target: Fields, from: string, to: string, transform: (value: unknown) => unknown = (value) => value): void {
  if (!(from in source)) return;
  target[to] = transform(source[from]);
  delete source[from];
}

function gaSession(beta: Fields): Fields {
  const rest = { ...beta };
  const input: Fields = {};
  const output: Fields = {};
  const session: Fields = { type: 'realtime' };
  move(rest, session, 'modalities', 'output_modalities', gaModalities);
  move(rest, session, 'max_response_output_tokens', 'max_output_tokens');
  move(rest, input, 'input_audio_format', 'format', gaFormat);
  move(rest, input, 'input_audio_transcription', 'transcription');
  move(rest, input, 'input_audio_noise_reduction', 'noise_reduction');
  move(rest, input, 'turn_detection', 'turn_detection');
  move(rest, output, 'output_audio_format', 'format', gaFormat);
  move(rest, output, 'voice', 'voice');
  move(rest, output, 'speed', 'speed');
  const audio = { ...(Object.keys(input).length > 0 ? { input } : {}), ...(Object.keys(output).length > 0 ? { output } : {}) };
  return { ...session, ...rest, ...(Object.keys(audio).length > 0 ? { audio } : {}) };
}

function gaItem(item: unknown): unknown {
  if (!isObject(item) || item.role !== 'assistant' || !Array.isArray(item.content)) return item;
  return {
    ...item,
    content: item.content.map((part: unknown) =>
      isObject(part) && (part.type === 'text' || part.type === 'audio') ? { ...part, type: part.type === 'text' ? 'output_text' : 'output_audio' } : part,
    ),
  };
}

function gaResponse(beta: Fields): Fields {
  const rest = { ...beta };
  const response: Fields = {};
  const output: Fields = {};
  move(rest, response, 'modalities', 'output_modalities', gaModalities);
  move(rest, response, 'max_response_output_tokens', 'max_output_tokens');
  move(rest, output, 'voice', 'voice');
  move(rest, output, 'output_audio_format', 'format', gaFormat);
  if (Array.isArray(rest.input)) rest.input = rest.input.map(gaItem);
  return { ...response, ...rest, ...(Object.keys(output).length > 0 ? { audio: { output } } : {}) };
}

function betaItem(item: RealtimeItem): object {
  const content = item.content?.map((part) => ({ ...part, type: part.type === 'output_text' ? 'text' : part.type === 'output_audio' ? 'audio' : part.type }));
  return { ...item, ...(content ? { content } : {}) };
}

function betaSession(session: RealtimeSessionObject): object {
  const { input, output } = session.audio;
  return {
    id: session.id,
    object: 'realtime.session',
    model: session.model,
    expires_at: session.expires_at,
    modalities: session.output_modalities.includes('audio') ? ['audio', 'text'] : ['text'],
    instructions: session.instructions,
    voice: output.voice,
    speed: output.speed,
    input_audio_format: betaFormat(input.format),
    output_audio_format: betaFormat(output.format),
    input_audio_transcription: input.transcription,
    input_audio_noise_reduction: input.noise_reduction,
    turn_detection: input.turn_detection,
    tools: session.tools,
    tool_choice: session.tool_choice,
    max_response_output_tokens: session.max_output_tokens,
    tracing: session.tracing,
  };
}

const RENAMED: Record<string, string> = {
  'response.output_audio.delta': 'response.audio.delta',
  'response.output_audio.done': 'response.audio.done',
  'response.output_audio_transcript.delta': 'response.audio_transcript.delta',
  'response.output_audio_transcript.done': 'response.audio_transcript.done',
  'response.output_text.delta': 'response.text.delta',
  'response.output_text.done': 'response.text.done',
  'conversation.item.added': 'conversation.item.created',
};

export const BETA_DIALECT: RealtimeDialect = {
  incoming(event) {
    if (event.type === 'session.update' && isObject(event.session)) return { ...event, session: gaSession(event.session) };
    if (event.type === 'conversation.item.create') return { ...event, item: gaItem(event.item) };
    if (event.type === 'response.create' && isObject(event.response)) return { ...event, response: gaResponse(event.response) };
    return event;
  },
  outgoing(event) {
    if (event.type === 'conversation.item.done') return undefined;
    const type = RENAMED[event.type] ?? event.type;
    if (event.type === 'session.created' || event.type === 'session.updated') return { ...event, session: betaSession(event.session) };
    if (event.type === 'response.created' || event.type === 'response.done') {
      const { output_modalities: modalities, audio, ...response } = event.response;
      return {
        ...event,
        response: {
          ...response,
          modalities: modalities.includes('audio') ? ['audio', 'text'] : ['text'],
          voice: audio.output.voice,
          output_audio_format: betaFormat(audio.output.format),
          output: response.output.map(betaItem),
        },
      };
    }
    if ('item' in event) return { ...event, type, item: betaItem(event.item) };
    return { ...event, type };
  },
};
