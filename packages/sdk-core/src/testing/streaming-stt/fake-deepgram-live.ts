import { randomUUID } from 'node:crypto';
import type { RawData, WebSocket } from 'ws';
import type { DeepgramMetadata, DeepgramResults, DeepgramSpeechStarted, DeepgramUtteranceEnd } from '../../server/engines/speech/index.js';
import { FakeVendorServer, type FakeConnectionRequest, type HandshakeRefusal } from './fake-vendor-server.js';
import { ScriptCursor, ScriptedRecogniser, type ScriptedTranscriptOptions, type ScriptedWord } from './scripted-recogniser.js';

export interface FakeDeepgramLiveOptions extends ScriptedTranscriptOptions {
  /** The key the fake accepts (`Authorization: Token <key>`). */
  apiKey: string;
  /** Deepgram closes a stream with 1011 `NET-0001` after this long without audio or a message. Default 10 s. */
  idleTimeoutMs?: number;
  /** Time the vendor takes to answer `Finalize` (the round trip and its decoding), settling what it heard by then. Default 0. */
  finalizeDelayMs?: number;
}

/** A Deepgram live transcription server on 127.0.0.1, as tests and benches use it. */
export interface FakeDeepgramLive {
  /** `ws://127.0.0.1:<port>/v1/listen`. */
  readonly url: string;
  /** Every connection's handshake (path, query, headers), accepted or refused. */
  readonly requests: readonly FakeConnectionRequest[];
  /** Client messages Deepgram would not understand (unknown control messages, bad JSON). */
  readonly violations: readonly string[];
  /** Control messages received, in order (`KeepAlive`, `Finalize`, `CloseStream`). */
  readonly controls: readonly string[];
  /** Seconds of audio received over all connections. */
  readonly audioSeconds: number;
  /** Utterances heard so far (script entries taken). */
  readonly utterancesHeard: number;
  readonly openConnections: number;
  /** Ends every open connection abruptly (the client sees 1006). */
  dropConnections(): void;
  close(): Promise<void>;
}

const MODEL_UUID = '1dbdfb4d-85b2-4659-9831-16b3c76229aa';
const BOOLEAN = /^(true|false)$/;

/**
 * A local stand-in for Deepgram's `/v1/listen` websocket that checks the handshake as Deepgram does (HTTP 401
 * `INVALID_AUTH` for a bad key, 400 for bad parameters; linear16 mono only), hears speech in the audio by energy and
 * answers with the script: `SpeechStarted` (with `vad_events`), interim `Results` every ~100 ms of speech, a final
 * (`is_final`, `speech_final`) ~150 ms after the speech ends, `UtteranceEnd` (with `utterance_end_ms`),
 * `Finalize` -> a final `from_finalize`, `CloseStream` -> last results, `Metadata` and a normal close.
 *
 * @example
 * const deepgram = await startFakeDeepgramLive({ apiKey: 'dg-test', script: ['Book a table for two.'] });
 * const engine = new DeepgramLiveStt({ apiKey: 'dg-test', url: deepgram.url });
 */
export async function startFakeDeepgramLive(options: FakeDeepgramLiveOptions): Promise<FakeDeepgramLive> {
  const cursor = new ScriptCursor(options);
  const violations: string[] = [];
  const controls: string[] = [];
  let audioSeconds = 0;

  const server = new FakeVendorServer(
    (request) => refuse(request, options.apiKey),
    (socket, request) => serve(socket, request, Number(request.query.sample_rate)),
  );

  function serve(socket: WebSocket, request: FakeConnectionRequest, sampleRate: number): void {
    const query = request.query;
    const requestId = randomUUID();
    const endpointing = query.endpointing === undefined ? 10 : query.endpointing === 'false' ? false : Number(query.endpointing);
    const interimResults = query.interim_results === 'true';
    const smartFormat = query.smart_format === 'true' || query.punctuate === 'true';
    const utteranceEndMs = query.utterance_end_ms === undefined ? undefined : Number(query.utterance_end_ms);
    let lastWordEnd: number | undefined;
    let received = 0;
    let closing = false;
    const send = (message: object) => socket.readyState === 1 && socket.send(JSON.stringify(message));
    const results = (words: ScriptedWord[], span: { start: number; end: number }, flags: { final: boolean; speechFinal: boolean; fromFinalize?: boolean }) => {
      const tokens = words.map((word, index) => (smartFormat ? punctuated(word.token, index === 0 && span.start === firstSpanStart) : word.word));
      const message: DeepgramResults = {
        type: 'Results',
        channel_index: [0, 1],
        duration: round(span.end - span.start),
        start: span.start,
        is_final: flags.final,
        speech_final: flags.speechFinal,
        channel: {
          alternatives: [
            {
              transcript: tokens.join(' '),
              confidence: words.length > 0 ? round(words.reduce((sum, word) => sum + word.confidence, 0) / words.length) : 0,
              words: words.map((word, index) => ({
                word: word.word,
                start: word.start,
                end: word.end,
                confidence: word.confidence,
                punctuated_word: tokens[index]!,
              })),
            },
          ],
        },
        metadata: { request_id: requestId, model_info: { name: query.model ?? 'general', version: '2024-01-01.0', arch: 'nova-3' }, model_uuid: MODEL_UUID },
        ...(flags.fromFinalize ? { from_finalize: true } : {}),
      };
      send(message);
      if (words.length > 0) lastWordEnd = words[words.length - 1]!.end;
    };
    let firstSpanStart = -1;
    const recogniser = new ScriptedRecogniser(sampleRate, () => endpointing, cursor, options, {
      speechStarted(at) {
        firstSpanStart = at;
        if (query.vad_events === 'true') send({ type: 'SpeechStarted', channel: [0], timestamp: at } satisfies DeepgramSpeechStarted);
      },
      interim(words, span) {
        if (interimResults) results(words, span, { final: false, speechFinal: false });
      },
      speechEnded() {},
      final(words, span, reason) {
        results(words, span, { final: true, speechFinal: reason === 'endpoint' && endpointing !== false, fromFinalize: reason === 'flush' });
        if (reason === 'endpoint' && utteranceEndMs !== undefined && lastWordEnd !== undefined) {
          send({ type: 'UtteranceEnd', channel: [0, 1], last_word_end: lastWordEnd } satisfies DeepgramUtteranceEnd);
        }
      },
    });

    const idleMs = options.idleTimeoutMs ?? 10_000;
    let idle = setTimeout(timeOut, idleMs);
    function timeOut() {
      socket.close(1011, 'NET-0001');
    }
    const activity = () => {
      clearTimeout(idle);
      idle = setTimeout(timeOut, idleMs);
    };

    const finish = () => {
      closing = true;
      recogniser.flush();
      const metadata: DeepgramMetadata = {
        type: 'Metadata',
        transaction_key: 'deprecated',
        request_id: requestId,
        sha256: '0'.repeat(64),
        created: new Date().toISOString(),
        duration: round(received / sampleRate),
        channels: 1,
        models: [MODEL_UUID],
        model_info: { [MODEL_UUID]: { name: query.model ?? 'general', version: '2024-01-01.0', arch: 'nova-3' } },
      };
      send(metadata);
      socket.close(1000);
    };

    socket.on('message', (data: RawData, isBinary: boolean) => {
      if (closing) return;
      activity();
      const bytes = toBuffer(data);
      if (isBinary) {
        // An empty binary frame is the legacy way to end a stream.
        if (bytes.length === 0) return finish();
        const pcm = new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.length & ~1)));
        received += pcm.length;
        audioSeconds += pcm.length / sampleRate;
        recogniser.push(pcm);
        return;
      }
      let message: { type?: unknown };
      try {
        message = JSON.parse(bytes.toString('utf8')) as { type?: unknown };
      } catch {
        violations.push(`not JSON: ${bytes.toString('utf8').slice(0, 60)}`);
        return;
      }
      const type = String(message.type);
      controls.push(type);
      if (type === 'KeepAlive') return;
      if (type === 'Finalize') {
        if (options.finalizeDelayMs) setTimeout(() => socket.readyState === 1 && recogniser.flush(), options.finalizeDelayMs);
        else recogniser.flush();
        return;
      }
      if (type === 'CloseStream') return finish();
      violations.push(`unknown control message ${type}`);
    });
    socket.on('close', () => {
      clearTimeout(idle);
      recogniser.dispose();
    });
  }

  await server.listen();
  return {
    url: server.url('/v1/listen'),
    requests: server.requests,
    violations,
    controls,
    get audioSeconds() {
      return round(audioSeconds);
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

/** Deepgram's handshake checks: the key first, then the audio parameters this fake supports. */
function refuse(request: FakeConnectionRequest, apiKey: string): HandshakeRefusal | undefined {
  const requestId = randomUUID();
  const bad = (message: string): HandshakeRefusal => ({
    status: 400,
    body: { err_code: 'Bad Request', err_msg: message, request_id: requestId },
    headers: { 'dg-error': message, 'dg-request-id': requestId },
  });
  if (request.path !== '/v1/listen') return { status: 404, body: { err_code: 'NOT_FOUND', err_msg: `No such route ${request.path}`, request_id: requestId } };
  const authorization = request.headers.authorization ?? '';
  const protocols = String(request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((part) => part.trim());
  const key = /^Token (.+)$/i.exec(authorization)?.[1] ?? (protocols[0] === 'token' ? protocols[1] : undefined);
  if (key !== apiKey) {
    const message = 'Invalid credentials.';
    return {
      status: 401,
      body: { err_code: 'INVALID_AUTH', err_msg: message, request_id: requestId },
      headers: { 'dg-error': message, 'dg-request-id': requestId },
    };
  }
  const { query } = request;
  if (query.encoding !== undefined && query.encoding !== 'linear16') return bad(`this fake decodes encoding=linear16 only, not ${query.encoding}`);
  if (query.encoding === undefined) return bad('raw audio needs encoding=linear16 and sample_rate');
  const rate = Number(query.sample_rate);
  if (!Number.isInteger(rate) || rate < 8000 || rate > 48000) return bad('sample_rate must be set for encoding=linear16 (8000-48000)');
  if (query.channels !== undefined && query.channels !== '1') return bad('this fake transcribes channels=1 only');
  for (const flag of ['interim_results', 'vad_events', 'smart_format', 'punctuate']) {
    if (query[flag] !== undefined && !BOOLEAN.test(query[flag])) return bad(`${flag} must be true or false`);
  }
  if (query.endpointing !== undefined && query.endpointing !== 'false' && !/^\d+$/.test(query.endpointing))
    return bad('endpointing must be a number of milliseconds or false');
  if (query.utterance_end_ms !== undefined) {
    if (!/^\d+$/.test(query.utterance_end_ms) || Number(query.utterance_end_ms) < 1000) return bad('utterance_end_ms must be at least 1000');
    if (query.interim_results !== 'true') return bad('utterance_end_ms requires interim_results=true');
  }
  return undefined;
}

/** The smart-formatted token: the script's own spelling, capitalised at the start of an utterance. */
function punctuated(token: string, first: boolean): string {
  return first ? token.charAt(0).toUpperCase() + token.slice(1) : token;
}

function toBuffer(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  return data;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
