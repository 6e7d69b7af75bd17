/**
 * Voice to voice through OpenAI's Realtime API (`/v1/realtime`, the `openai` package's `OpenAIRealtimeWS`) against the
 * same turn through a realtime session's room (LiveKit protocol, embedded media endpoint, the built-in agent), both on
 * the built-in engines (Silero/energy VAD, pocketsphinx STT, the offline model, Flite TTS) and the default adaptive
 * end of turn. The same Flite sentences are said into both, interleaved turn by turn, at a microphone's pace, then
 * 1.5 s of silence. Measured at the human: end of speech -> the first audible agent audio (the room: the first audible
 * frame of the agent's track; the socket: the first audible `response.output_audio.delta`). Prints p50/p90 of each, the
 * ratio of the medians and the median of the paired ratios (target: within 1.2x).
 * Needs pocketsphinx (skips with a reason without it).
 *
 * Run: `pnpm bench realtime`; `REALTIME_TURNS=6` says fewer sentences (10 by default).
 */
import { connect } from 'node:net';
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import {
  AUDIBLE_RMS,
  HumanParticipant,
  RecordedEvents,
  agentHostFor,
  createTestPlatform,
  fliteSpeech,
  resampleLinear,
  rms,
  sessionSpec,
} from '@palaver/sdk-core/testing';
import { fixed, median, percentile } from './statistics.js';

const SENTENCES = [
  'Please call me tomorrow morning.',
  'I would like to book a table for two.',
  'The weather is nice today.',
  'What time does the train leave?',
  'My favourite colour is blue.',
  'How much does the ticket cost?',
  'Where is the nearest pharmacy?',
  'I need a taxi to the airport.',
  'Is the museum open on Monday?',
  'How do I reset my password?',
].slice(0, Number(process.env.REALTIME_TURNS ?? 10));
const RATE = 24_000;
const SILENCE_MS = 1500;

const test = await createTestPlatform();
const baseUrl = await test.server.listen(0, '127.0.0.1');
const { speech } = test.server.services;
const stt = await speech.stt.status();
if (!stt.available) {
  console.log(`[skip] realtime bench: no speech-to-text engine (${stt.reason})`);
  await test.close();
  process.exit(0);
}

/** The room: a realtime session with the built-in agent, the human joined through the embedded transport. */
async function roomSession() {
  const host = agentHostFor(test);
  const spec = await sessionSpec(test, 'bench-room-human');
  const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, 'bench-room-human');
  const handle = await host.start(spec, new RecordedEvents());
  await human.waitForState('listening');
  let turns = 0;
  return {
    /** Says `said`; answers end of speech -> the first audible agent frame, once the agent is listening again. */
    async turn(said: Awaited<ReturnType<typeof fliteSpeech>>): Promise<number> {
      turns += 1;
      const { speechEndedAt } = await human.say(said, SILENCE_MS);
      const deadline = performance.now() + 30_000;
      while (human.finalTranscriptions(true).length < turns && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      await human.waitForState('listening');
      const heard = human.firstAudibleAfter(speechEndedAt);
      if (!heard) throw new Error(`room, turn ${turns}: no agent audio`);
      return heard.at - speechEndedAt;
    },
    async close() {
      await handle.stop();
      await human.leave();
      await host.close();
    },
  };
}

/** The socket: `OpenAIRealtimeWS` (plain TCP under its `wss:` URL: the server under test speaks HTTP). */
async function socketSession() {
  const client = new OpenAI({ apiKey: test.server.apiKey, baseURL: `${baseUrl}/v1` });
  const { hostname, port } = new URL(baseUrl);
  const socket = new OpenAIRealtimeWS(
    { model: 'builtin-offline', options: { createConnection: () => connect({ host: hostname, port: Number(port) }) } },
    client,
  );
  let firstAudible: number | undefined;
  let done = 0;
  let created: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (created = resolve));
  socket.on('session.created', () => created());
  socket.on('response.output_audio.delta', (event) => {
    if (firstAudible !== undefined) return;
    const bytes = Buffer.from(event.delta, 'base64');
    const pcm = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
    if (rms(pcm) > AUDIBLE_RMS) firstAudible = performance.now();
  });
  socket.on('response.done', () => (done += 1));
  socket.on('error', (error) => console.error('realtime error', error.message));
  await ready;
  return {
    async turn(said: Awaited<ReturnType<typeof fliteSpeech>>): Promise<number> {
      firstAudible = undefined;
      const before = done;
      const pcm = resampleLinear(said.pcm, said.sampleRate, RATE);
      const audio = new Int16Array(pcm.length + (RATE * SILENCE_MS) / 1000);
      audio.set(pcm);
      const chunk = (RATE * 20) / 1000;
      const started = performance.now();
      for (let offset = 0; offset < audio.length; offset += chunk) {
        const part = audio.subarray(offset, offset + chunk);
        socket.send({ type: 'input_audio_buffer.append', audio: Buffer.from(part.buffer, part.byteOffset, part.byteLength).toString('base64') });
        const aheadMs = ((offset + chunk) / RATE) * 1000 - (performance.now() - started);
        if (aheadMs > 0) await new Promise((resolve) => setTimeout(resolve, aheadMs));
      }
      const speechEndedAt = started + said.speechEndMs;
      const deadline = performance.now() + 30_000;
      while (done === before && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      if (firstAudible === undefined) throw new Error('socket: no agent audio');
      return firstAudible - speechEndedAt;
    },
    close: () => socket.close(),
  };
}

const room = await roomSession();
const socket = await socketSession();
const roomMs: number[] = [];
const socketMs: number[] = [];
try {
  for (const [index, sentence] of SENTENCES.entries()) {
    const said = await fliteSpeech(speech, sentence);
    // Interleaved, the order swapped every turn, so drifting load weighs on both alike.
    if (index % 2 === 0) {
      roomMs.push(await room.turn(said));
      socketMs.push(await socket.turn(said));
    } else {
      socketMs.push(await socket.turn(said));
      roomMs.push(await room.turn(said));
    }
    console.log(`turn ${index + 1}: room ${fixed(roomMs.at(-1)!, 0)} ms, /v1/realtime ${fixed(socketMs.at(-1)!, 0)} ms`);
  }
} finally {
  await room.close();
  socket.close();
  await test.close();
}

const line = (name: string, values: number[]) => `${name}: p50 ${fixed(percentile(values, 50), 0)} ms, p90 ${fixed(percentile(values, 90), 0)} ms`;
console.log(`\nvoice to voice (end of speech -> first audible answer), ${SENTENCES.length} turns, built-in engines, adaptive end of turn`);
console.log(line('realtime session (room, LiveKit protocol)', roomMs));
console.log(line('/v1/realtime (openai OpenAIRealtimeWS)', socketMs));
console.log(
  `ratio /v1/realtime : room = ${fixed(median(socketMs) / median(roomMs), 2)} (medians), ${fixed(median(socketMs.map((value, index) => value / roomMs[index]!)), 2)} (paired median); target <= 1.2`,
);
console.log(
  `load average ${(await import('node:os'))
    .loadavg()
    .map((value) => fixed(value, 1))
    .join(' ')} (2 cores shared with other work: figures move between runs)`,
);
