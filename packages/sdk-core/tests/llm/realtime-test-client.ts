import { connect } from 'node:net';
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import type { RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import { resampleHighQuality } from '../../src/server/engines/speech/codecs/resample.js';
import type { Speech } from '../../src/server/engines/speech/index.js';
import { fliteSpeech } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';

/** The Realtime API's audio rate. */
export const RATE = 24_000;

/**
 * `openai`'s realtime websocket client against a local server. The package always dials `wss:`; a Palaver server
 * under test speaks plain HTTP, so the socket is opened over plain TCP (`ws`'s `createConnection`), the URL, headers
 * and protocol otherwise the package's own.
 */
export function realtimeClient(baseUrl: string, apiKey: string, model = 'builtin-offline'): OpenAIRealtimeWS {
  const client = new OpenAI({ apiKey, baseURL: `${baseUrl}/v1` });
  const { port, hostname } = new URL(baseUrl);
  return new OpenAIRealtimeWS({ model, options: { createConnection: () => connect({ host: hostname, port: Number(port) }) } }, client);
}

/** Every server event a client received, with waits for the ones a test expects. */
export class ReceivedEvents {
  readonly all: RealtimeServerEvent[] = [];
  readonly errors: Array<{ type: string; code?: string | null; message: string; param?: string | null }> = [];

  constructor(readonly socket: OpenAIRealtimeWS) {
    socket.on('event', (event) => this.all.push(event));
    socket.on('error', (error) => {
      if (error.error) this.errors.push(error.error);
    });
  }

  of<T extends RealtimeServerEvent['type']>(type: T): Array<Extract<RealtimeServerEvent, { type: T }>> {
    return this.all.filter((event): event is Extract<RealtimeServerEvent, { type: T }> => event.type === type);
  }

  /** Waits for the `count`th event of `type` (matching `where`), and answers it. */
  async next<T extends RealtimeServerEvent['type']>(
    type: T,
    where: (event: Extract<RealtimeServerEvent, { type: T }>) => boolean = () => true,
    count = 1,
    timeoutMs = 30_000,
  ): Promise<Extract<RealtimeServerEvent, { type: T }>> {
    let found: Extract<RealtimeServerEvent, { type: T }> | undefined;
    await eventually(() => {
      const matching = this.of(type).filter(where);
      if (matching.length < count) throw new Error(`${matching.length} of ${count} ${type} events so far`);
      found = matching[count - 1];
    }, timeoutMs);
    return found!;
  }

  /** Waits for the `count`th error event, and answers it. */
  async error(count: number, timeoutMs = 10_000): Promise<ReceivedEvents['errors'][number]> {
    await eventually(() => {
      if (this.errors.length < count) throw new Error(`${this.errors.length} of ${count} errors so far`);
    }, timeoutMs);
    return this.errors[count - 1]!;
  }

  /** The PCM of a response's audio deltas, joined. */
  audioOf(responseId: string): Int16Array {
    const chunks = this.of('response.output_audio.delta')
      .filter((event) => event.response_id === responseId)
      .map((event) => Buffer.from(event.delta, 'base64'));
    const bytes = Buffer.concat(chunks);
    const pcm = new Int16Array(bytes.length / 2);
    for (let index = 0; index < pcm.length; index += 1) pcm[index] = bytes.readInt16LE(index * 2);
    return pcm;
  }
}

/** Opens a socket and waits for `session.created`. */
export async function openSession(baseUrl: string, apiKey: string, model?: string): Promise<{ socket: OpenAIRealtimeWS; events: ReceivedEvents }> {
  const socket = realtimeClient(baseUrl, apiKey, model);
  const events = new ReceivedEvents(socket);
  await events.next('session.created');
  return { socket, events };
}

/** Platform TTS of `text` (Flite) at the Realtime API's rate, as a microphone would carry it. */
export async function spoken(speech: Speech, text: string): Promise<Int16Array> {
  const { pcm, sampleRate } = await fliteSpeech(speech, text);
  return resampleHighQuality(pcm, sampleRate, RATE);
}

function base64(pcm: Int16Array): string {
  return Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).toString('base64');
}

/**
 * Streams `pcm` then `silenceMs` of silence into `input_audio_buffer.append`, 40 ms at a time at the pace a
 * microphone would (the listener's end of turn runs on the wall clock).
 */
export async function speakInto(socket: OpenAIRealtimeWS, pcm: Int16Array, silenceMs = 1500): Promise<void> {
  const chunk = (RATE * 40) / 1000;
  const audio = new Int16Array(pcm.length + Math.round((RATE * silenceMs) / 1000));
  audio.set(pcm);
  const started = performance.now();
  for (let offset = 0; offset < audio.length; offset += chunk) {
    socket.send({ type: 'input_audio_buffer.append', audio: base64(audio.subarray(offset, offset + chunk)) });
    const dueMs = ((offset + chunk) / RATE) * 1000;
    const aheadMs = dueMs - (performance.now() - started);
    if (aheadMs > 0) await new Promise((resolve) => setTimeout(resolve, aheadMs));
  }
}
