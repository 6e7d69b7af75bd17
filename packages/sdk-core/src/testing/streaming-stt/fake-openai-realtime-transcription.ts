import { randomUUID } from 'node:crypto';
import type { RawData, WebSocket } from 'ws';
import { OPENAI_REALTIME_PATH } from '../../contract/wire.js';
import { REALTIME_INVALID_KEY_CLOSE, REALTIME_SAMPLE_RATE, type RealtimeErrorEvent, type RealtimeLogprob } from '../../server/engines/speech/index.js';
import { FakeVendorServer, type FakeConnectionRequest, type HandshakeRefusal } from './fake-vendor-server.js';
import { ScriptCursor, ScriptedRecogniser, type ScriptedTranscriptOptions, type ScriptedWord } from './scripted-recogniser.js';

export interface FakeOpenAiRealtimeTranscriptionOptions extends ScriptedTranscriptOptions {
  /** The key the fake accepts (`Authorization: Bearer <key>`). */
  apiKey: string;
  /** Transcription models the fake knows. Default gpt-4o-transcribe, gpt-4o-mini-transcribe, whisper-1. */
  models?: readonly string[];
  /**
   * When transcript deltas come: `after-commit` (the default, as OpenAI's models do: streamed over the final delay
   * once the server VAD commits the speech) or `while-speaking` (a delta with the newly heard words every interim).
   */
  deltas?: 'after-commit' | 'while-speaking';
}

export interface FakeOpenAiRealtimeTranscription {
  /** `ws://127.0.0.1:<port>/v1/realtime?intent=transcription`. */
  readonly url: string;
  readonly requests: readonly FakeConnectionRequest[];
  /** Client events answered with an `error` (unknown types, bad values, missing beta header). */
  readonly violations: readonly string[];
  /** Every `transcription_session.update` session received, in order. */
  readonly sessionUpdates: readonly Record<string, unknown>[];
  readonly audioSeconds: number;
  readonly utterancesHeard: number;
  readonly openConnections: number;
  dropConnections(): void;
  close(): Promise<void>;
}

const DEFAULT_MODELS = ['gpt-4o-transcribe', 'gpt-4o-mini-transcribe', 'whisper-1'];
const DEFAULT_VAD = { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500 };
const CLIENT_EVENTS = ['transcription_session.update', 'input_audio_buffer.append', 'input_audio_buffer.commit', 'input_audio_buffer.clear'];

interface SessionState {
  id: string;
  object: 'realtime.transcription_session';
  input_audio_format: string;
  input_audio_transcription: { model: string; language?: string; prompt?: string } | null;
  turn_detection: { type: string; threshold: number; prefix_padding_ms: number; silence_duration_ms: number } | null;
  input_audio_noise_reduction: { type: string } | null;
  include: string[] | null;
}

/**
 * A local stand-in for OpenAI's realtime transcription websocket (beta protocol): `transcription_session.created`
 * on connect; a bad key gets OpenAI's `invalid_api_key` error and close 3000; `transcription_session.update` is
 * validated (pcm16 only here) and answered `updated`; the audio of `input_audio_buffer.append` goes through an energy
 * VAD; with `server_vad`, `speech_started`, `speech_stopped` (after `silence_duration_ms`), `committed`, transcript
 * `delta`s and `completed` ~150 ms after the end of speech carry the script's next utterance (with token logprobs
 * when `include` asks); with turn detection off, `input_audio_buffer.commit` transcribes what was heard.
 *
 * @example
 * const openai = await startFakeOpenAiRealtimeTranscription({ apiKey: 'sk-test', script: ['Hello there.'] });
 * const engine = new OpenAiRealtimeTranscription({ apiKey: 'sk-test', url: openai.url });
 */
export async function startFakeOpenAiRealtimeTranscription(options: FakeOpenAiRealtimeTranscriptionOptions): Promise<FakeOpenAiRealtimeTranscription> {
  const cursor = new ScriptCursor(options);
  const violations: string[] = [];
  const sessionUpdates: Record<string, unknown>[] = [];
  const models = options.models ?? DEFAULT_MODELS;
  let audioSeconds = 0;

  const server = new FakeVendorServer(refuse, serve);

  function serve(socket: WebSocket, request: FakeConnectionRequest): void {
    const send = (event: Record<string, unknown>) => socket.readyState === 1 && socket.send(JSON.stringify({ event_id: eventId(), ...event }));
    const fail = (code: string | null, message: string, param: string | null = null, clientEventId: string | null = null) => {
      violations.push(`${code ?? 'error'}: ${message}`);
      send({ type: 'error', error: { type: 'invalid_request_error', code, message, param, event_id: clientEventId } } satisfies Omit<
        RealtimeErrorEvent,
        'event_id'
      >);
    };
    const key = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (key !== options.apiKey) {
      const shown = key ? `${key.slice(0, 3)}*****${key.slice(-4)}` : '';
      send({
        type: 'error',
        error: {
          type: 'invalid_request_error',
          code: 'invalid_api_key',
          message: `Incorrect API key provided: ${shown}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          param: null,
          event_id: null,
        },
      });
      socket.close(REALTIME_INVALID_KEY_CLOSE.code, REALTIME_INVALID_KEY_CLOSE.reason);
      return;
    }
    const beta = request.headers['openai-beta'] === 'realtime=v1';

    const session: SessionState = {
      id: `sess_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
      object: 'realtime.transcription_session',
      input_audio_format: 'pcm16',
      input_audio_transcription: null,
      turn_detection: { ...DEFAULT_VAD },
      input_audio_noise_reduction: null,
      include: null,
    };
    let itemCounter = 0;
    let currentItem: string | undefined;
    let previousItem: string | null = null;
    let bufferedSamples = 0;
    const pendingTimers = new Set<ReturnType<typeof setTimeout>>();
    const logprobs = () => session.include?.includes('item.input_audio_transcription.logprobs') ?? false;
    const newItem = () => `item_${randomUUID().replaceAll('-', '').slice(0, 20)}${itemCounter++}`;
    const tokensOf = (words: ScriptedWord[], leadingSpace: boolean): RealtimeLogprob[] =>
      words.map((word, index) => {
        const token = `${index > 0 || leadingSpace ? ' ' : ''}${word.token}`;
        return { token, logprob: Math.round(Math.log(word.confidence) * 10_000) / 10_000, bytes: [...Buffer.from(token)] };
      });
    let deltaSent = new Map<string, number>();

    const commit = (itemId: string) => {
      send({ type: 'input_audio_buffer.committed', item_id: itemId, previous_item_id: previousItem });
      previousItem = itemId;
      bufferedSamples = 0;
    };
    /** The transcript of a committed item: deltas (the rest not yet sent) spread over the final delay, then completed. */
    const transcribe = (itemId: string, words: ScriptedWord[]) => {
      if (!session.input_audio_transcription) return;
      const already = deltaSent.get(itemId) ?? 0;
      const rest = words.slice(already);
      const delay = options.finalDelayMs ?? 150;
      const step = rest.length > 0 ? delay / (rest.length + 1) : 0;
      rest.forEach((word, index) => {
        const timer = setTimeout(() => {
          pendingTimers.delete(timer);
          const tokens = tokensOf([word], already + index > 0);
          send({
            type: 'conversation.item.input_audio_transcription.delta',
            item_id: itemId,
            content_index: 0,
            delta: tokens[0]!.token,
            ...(logprobs() ? { logprobs: tokens } : {}),
          });
        }, step * index);
        pendingTimers.add(timer);
      });
      const timer = setTimeout(() => {
        pendingTimers.delete(timer);
        deltaSent.delete(itemId);
        const transcript = words.map((word) => word.token).join(' ');
        send({
          type: 'conversation.item.input_audio_transcription.completed',
          item_id: itemId,
          content_index: 0,
          transcript,
          usage: { type: 'duration', seconds: Math.round(words.length * (options.secondsPerWord ?? 0.28)) },
          ...(logprobs() ? { logprobs: tokensOf(words, false) } : {}),
        });
      }, delay);
      pendingTimers.add(timer);
    };

    /** Words of the item being heard, gathered across `flush`es until its transcript goes out. */
    let heard: ScriptedWord[] = [];
    const recogniser = new ScriptedRecogniser(
      REALTIME_SAMPLE_RATE,
      () => (session.turn_detection ? session.turn_detection.silence_duration_ms : false),
      cursor,
      { ...options, finalDelayMs: 0 },
      {
        speechStarted(at) {
          // Without turn detection the buffer gathers every utterance until the client commits.
          if (!session.turn_detection) return;
          heard = [];
          currentItem = newItem();
          send({
            type: 'input_audio_buffer.speech_started',
            item_id: currentItem,
            audio_start_ms: Math.max(0, Math.round(at * 1000) - session.turn_detection.prefix_padding_ms),
          });
        },
        interim(words) {
          if (options.deltas !== 'while-speaking' || !currentItem || !session.input_audio_transcription) return;
          const sent = deltaSent.get(currentItem) ?? 0;
          const fresh = words.slice(sent);
          if (fresh.length === 0) return;
          const tokens = tokensOf(fresh, sent > 0);
          deltaSent.set(currentItem, sent + fresh.length);
          send({
            type: 'conversation.item.input_audio_transcription.delta',
            item_id: currentItem,
            content_index: 0,
            delta: tokens.map((token) => token.token).join(''),
            ...(logprobs() ? { logprobs: tokens } : {}),
          });
        },
        speechEnded(at) {
          if (!session.turn_detection || !currentItem) return;
          send({
            type: 'input_audio_buffer.speech_stopped',
            item_id: currentItem,
            audio_end_ms: Math.round(at * 1000) + session.turn_detection.silence_duration_ms,
          });
        },
        final(words, _span, reason) {
          heard.push(...words);
          if (reason === 'flush') return;
          if (!session.turn_detection || !currentItem) return;
          const itemId = currentItem;
          currentItem = undefined;
          commit(itemId);
          transcribe(itemId, heard);
          heard = [];
        },
      },
    );

    const update = (event: Record<string, unknown>, clientEventId: string | null) => {
      const changes = event.session;
      if (!changes || typeof changes !== 'object')
        return fail('missing_required_parameter', "Missing required parameter: 'session'.", 'session', clientEventId);
      const next = changes as Record<string, unknown>;
      if (next.input_audio_format !== undefined) {
        if (!['pcm16', 'g711_ulaw', 'g711_alaw'].includes(String(next.input_audio_format))) {
          return fail(
            'invalid_value',
            `Invalid value: '${String(next.input_audio_format)}'. Supported values are: 'pcm16', 'g711_ulaw', and 'g711_alaw'.`,
            'session.input_audio_format',
            clientEventId,
          );
        }
        if (next.input_audio_format !== 'pcm16') return fail('invalid_value', 'This fake decodes pcm16 only.', 'session.input_audio_format', clientEventId);
      }
      if (next.input_audio_transcription !== undefined && next.input_audio_transcription !== null) {
        const transcription = next.input_audio_transcription as { model?: unknown; language?: unknown; prompt?: unknown };
        if (typeof transcription.model !== 'string' || !models.includes(transcription.model)) {
          return fail(
            'invalid_value',
            `Invalid value: '${String(transcription.model)}'. Supported values are: ${models.map((model) => `'${model}'`).join(', ')}.`,
            'session.input_audio_transcription.model',
            clientEventId,
          );
        }
      }
      if (next.turn_detection !== undefined && next.turn_detection !== null) {
        const detection = next.turn_detection as Record<string, unknown>;
        if (detection.type !== 'server_vad')
          return fail(
            'invalid_value',
            `This fake supports turn_detection.type 'server_vad' only, not '${String(detection.type)}'.`,
            'session.turn_detection.type',
            clientEventId,
          );
        const threshold = detection.threshold ?? DEFAULT_VAD.threshold;
        if (typeof threshold !== 'number' || threshold < 0 || threshold > 1)
          return fail(
            'decimal_above_max_value',
            'Invalid turn_detection.threshold: expected a number between 0 and 1.',
            'session.turn_detection.threshold',
            clientEventId,
          );
        for (const field of ['prefix_padding_ms', 'silence_duration_ms'] as const) {
          const value = detection[field];
          if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 0)) {
            return fail('invalid_type', `Invalid turn_detection.${field}: expected a non-negative integer.`, `session.turn_detection.${field}`, clientEventId);
          }
        }
      }
      sessionUpdates.push(next);
      if (next.input_audio_transcription !== undefined)
        session.input_audio_transcription = next.input_audio_transcription as SessionState['input_audio_transcription'];
      if (next.turn_detection !== undefined) session.turn_detection = next.turn_detection === null ? null : { ...DEFAULT_VAD, ...next.turn_detection };
      if (next.input_audio_noise_reduction !== undefined)
        session.input_audio_noise_reduction = next.input_audio_noise_reduction as SessionState['input_audio_noise_reduction'];
      if (next.include !== undefined) session.include = next.include as string[] | null;
      send({ type: 'transcription_session.updated', session: { ...session } });
    };

    const manualCommit = (clientEventId: string | null) => {
      if (bufferedSamples < REALTIME_SAMPLE_RATE * 0.1) {
        const milliseconds = ((bufferedSamples / REALTIME_SAMPLE_RATE) * 1000).toFixed(2);
        return fail(
          'input_audio_buffer_commit_empty',
          `Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has ${milliseconds}ms of audio.`,
          null,
          clientEventId,
        );
      }
      recogniser.flush();
      const itemId = currentItem ?? newItem();
      const words = heard;
      currentItem = undefined;
      heard = [];
      commit(itemId);
      transcribe(itemId, words);
    };

    socket.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) return fail('invalid_request_error', 'Binary frames are not supported: send JSON events.', null);
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(toText(data)) as Record<string, unknown>;
      } catch {
        return fail(null, 'We could not parse the JSON body of your request.', null);
      }
      const clientEventId = typeof event.event_id === 'string' ? event.event_id : null;
      const type = String(event.type);
      if (!CLIENT_EVENTS.includes(type)) {
        return fail(
          'invalid_value',
          `Invalid value: '${type}'. Supported values are: ${CLIENT_EVENTS.map((name) => `'${name}'`).join(', ')}.`,
          'type',
          clientEventId,
        );
      }
      if (!beta && type === 'transcription_session.update') {
        return fail(
          'invalid_value',
          "transcription_session.update is part of the beta protocol: connect with 'OpenAI-Beta: realtime=v1'.",
          'type',
          clientEventId,
        );
      }
      if (type === 'transcription_session.update') return update(event, clientEventId);
      if (type === 'input_audio_buffer.append') {
        if (typeof event.audio !== 'string') return fail('missing_required_parameter', "Missing required parameter: 'audio'.", 'audio', clientEventId);
        const bytes = Buffer.from(event.audio, 'base64');
        const pcm = new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.length & ~1)));
        audioSeconds += pcm.length / REALTIME_SAMPLE_RATE;
        bufferedSamples += pcm.length;
        recogniser.push(pcm);
        return;
      }
      if (type === 'input_audio_buffer.commit') return manualCommit(clientEventId);
      if (type === 'input_audio_buffer.clear') {
        recogniser.reset();
        heard = [];
        currentItem = undefined;
        bufferedSamples = 0;
        send({ type: 'input_audio_buffer.cleared' });
      }
    });
    socket.on('close', () => {
      recogniser.dispose();
      for (const timer of pendingTimers) clearTimeout(timer);
      pendingTimers.clear();
      deltaSent = new Map();
    });

    send({ type: 'transcription_session.created', session: { ...session } });
  }

  await server.listen();
  return {
    url: server.url('/v1/realtime?intent=transcription'),
    requests: server.requests,
    violations,
    sessionUpdates,
    get audioSeconds() {
      return Math.round(audioSeconds * 1000) / 1000;
    },
    get utterancesHeard() {
      return cursor.taken;
    },
    get openConnections() {
      return server.openConnections;
    },
    dropConnections: () => server.dropConnections(),
    close: () => server.close(),
  };
}

/** The realtime endpoint's handshake: the path and the transcription intent (the key is checked after the upgrade). */
function refuse(request: FakeConnectionRequest): HandshakeRefusal | undefined {
  if (request.path !== OPENAI_REALTIME_PATH)
    return { status: 404, body: { error: { type: 'invalid_request_error', code: 'not_found', message: `Unknown path ${request.path}.`, param: null } } };
  if (request.query.intent !== 'transcription') {
    return {
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'missing_required_parameter',
          message: 'This fake serves transcription sessions only: connect with ?intent=transcription.',
          param: 'intent',
        },
      },
    };
  }
  return undefined;
}

function eventId(): string {
  return `event_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
}

function toText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
