/**
 * Voice agent turn latency: a human participant says Flite sentences into a realtime session's room and the
 * agent (embedded media endpoint, Silero/energy VAD, pocketsphinx STT, builtin-offline, Flite TTS) answers.
 * Measured at the human: end of speech -> first audible agent audio, per turn. Baseline, measured in the same
 * run on the same audio: the pipeline's floor with the engines called directly and nothing in between =
 * the turn-detection silence threshold + STT final after the last frame (frames pushed in real time) + TTS first
 * audio of the answer.
 * Ratio = end to end / floor. Needs pocketsphinx (skips with a reason without it).
 *
 * Run: `pnpm bench voice-agent`.
 */
import { DEFAULT_TURN_DETECTION, HumanParticipant, RecordedEvents, agentHostFor, createTestPlatform, fliteSpeech, offlineAnswer, sessionSpec } from '@palaver/sdk-core/testing';
import { fixed, percentile } from './statistics.js';

const SENTENCES = [
  'Please call me tomorrow morning.',
  'I would like to book a table for two.',
  'The weather is nice today.',
  'Can you tell me a story about a dog?',
  'Thank you very much for your help.',
  'What time does the train leave?',
  'My favourite colour is blue.',
  'Good night and see you soon.',
];

const test = await createTestPlatform();
await test.server.listen(0, '127.0.0.1');
const { speech } = test.server.services;
const stt = await speech.stt.status();
if (!stt.available) {
  console.log(`[skip] voice-agent bench: no speech-to-text engine (${stt.reason})`);
  await test.close();
  process.exit(0);
}

/** The floor of one turn with the engines called directly on the same audio and answer. */
async function floorMs(pcm: Int16Array, sampleRate: number, answer: string): Promise<{ sttMs: number; ttsMs: number }> {
  // Frames pushed at the pace a microphone delivers them, as the agent receives them.
  const session = speech.stt.createSession({ sampleRate });
  const frame = Math.round(sampleRate * 0.02);
  const started = performance.now();
  for (let offset = 0, index = 0; offset < pcm.length; offset += frame, index += 1) {
    session.push(pcm.subarray(offset, offset + frame));
    const due = started + (index + 1) * 20;
    if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
  }
  const sttStarted = performance.now();
  await session.finish();
  const sttMs = performance.now() - sttStarted;
  session.close();
  const ttsStarted = performance.now();
  const iterator = speech.tts.synthesize({ voice: { service: 'flite', voice: 'slt' }, text: answer })[Symbol.asyncIterator]();
  await iterator.next();
  const ttsMs = performance.now() - ttsStarted;
  await iterator.return?.();
  return { sttMs, ttsMs };
}

const host = agentHostFor(test);
try {
  const identity = 'bench-human';
  const spec = await sessionSpec(test, identity);
  const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, identity);
  const handle = await host.start(spec, new RecordedEvents());
  await human.waitForState('listening');
  const endToEnd: number[] = [];
  const floors: number[] = [];
  for (const [index, sentence] of SENTENCES.entries()) {
    const said = await fliteSpeech(speech, sentence);
    const { speechEndedAt } = await human.say(said);
    const deadline = performance.now() + 20_000;
    while (human.finalTranscriptions(true).length < index + 1 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await human.waitForState('listening');
    const heard = human.firstAudibleAfter(speechEndedAt);
    if (!heard) throw new Error(`turn ${index + 1}: no agent audio`);
    endToEnd.push(heard.at - speechEndedAt);
    const answer = offlineAnswer(human.finalTranscriptions(false)[index]?.text ?? sentence);
    const trimmed = said.pcm.subarray(0, Math.round((said.speechEndMs / 1000) * said.sampleRate));
    const floor = await floorMs(trimmed, said.sampleRate, answer);
    floors.push(DEFAULT_TURN_DETECTION.silenceMs + floor.sttMs + floor.ttsMs);
  }
  await handle.stop();
  await human.leave();
  const p50 = percentile(endToEnd, 50);
  const floor50 = percentile(floors, 50);
  console.log(`voice agent, ${SENTENCES.length} spoken turns (end of human speech -> first audible agent audio, at the human)`);
  console.log(`  end to end        p50 ${fixed(p50, 0)} ms, max ${fixed(Math.max(...endToEnd), 0)} ms  [${endToEnd.map((value) => fixed(value, 0)).join(', ')}]`);
  console.log(`  floor (baseline)  p50 ${fixed(floor50, 0)} ms = ${DEFAULT_TURN_DETECTION.silenceMs} ms silence threshold + STT final + TTS first audio, engines called directly`);
  console.log(`  ratio             ${fixed(p50 / floor50, 2)} (end to end / floor); overhead ${fixed(p50 - floor50, 0)} ms`);
} finally {
  await host.close();
  await test.close();
}
