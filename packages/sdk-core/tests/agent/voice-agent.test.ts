import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentSessionHandle, AgentSessionHost } from '../../src/server/kernel/ports/agent-session-host.js';
import type { TurnMetrics } from '../../src/server/kernel/ports/turn-metrics.js';
import type { VoiceAgentHostDependencies } from '../../src/server/agent/voice-agent-host.js';
import { UnavailableSttEngine } from '../../src/server/engines/speech/stt/unavailable-stt-engine.js';
import { wordErrorRate } from '../../src/server/engines/speech/stt/word-error-rate.js';
import { pocketsphinxAvailable, transcribe } from '../speech/speech-test-support.js';
import { startFakeOpenAiUpstream, textChunks } from '../../src/testing/fake-openai-upstream.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { AUDIBLE_RMS, agentHostFor, HumanParticipant, RecordedEvents, fliteSpeech, offlineAnswer, rms, sessionSpec } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';

const sttAvailable = pocketsphinxAvailable();

describe('voice agent: the wire protocol around typed turns, speak() and the session limits', () => {
  let test: TestServer;
  let host: AgentSessionHost;
  const metrics: TurnMetrics[] = [];
  let humans = 0;

  function newHost(overrides: Partial<VoiceAgentHostDependencies> = {}): AgentSessionHost {
    return agentHostFor(test, { onTurnMetrics: (turn) => metrics.push(turn), ...overrides });
  }

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
    host = newHost();
  });

  afterAll(async () => {
    await host?.close();
    await test?.close();
  });

  async function setUp(overrides: Parameters<typeof sessionSpec>[2] = {}, agentHost = host) {
    const identity = `human-typed-${humans++}`;
    const spec = await sessionSpec(test, identity, overrides);
    const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, identity);
    const events = new RecordedEvents();
    const handle = await agentHost.start(spec, events);
    return { spec, human, events, handle };
  }

  async function tearDown(human: HumanParticipant, handle: AgentSessionHandle): Promise<void> {
    await handle.stop();
    await human.leave();
  }

  it('joins as the agent, warms up, answers a typed message with speech and a growing transcription', async () => {
    const { spec, human, events, handle } = await setUp();
    await human.waitForState('listening');
    expect(human.states[0]).toBe('warmup');
    expect(human.attributeStates.slice(0, 2)).toEqual(['initializing', 'listening']);
    expect(human.remainingSeconds).toEqual([null]);

    const sentAt = performance.now();
    await human.type('What is the weather like today?');
    const expected = offlineAnswer('What is the weather like today?');
    await eventually(() => expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([expected]), 20_000);
    await human.waitForState('listening');
    expect(human.states).toEqual(['warmup', 'listening', 'thinking', 'speaking', 'listening']);
    expect(human.attributeStates).toEqual(['initializing', 'listening', 'thinking', 'speaking', 'listening']);

    // The transcription grew under one id, and ended final with speaking_ended_at.
    const versions = human.messages.filter((message) => message.agent);
    expect(new Set(versions.map((version) => version.id)).size).toBe(1);
    expect(versions.length).toBeGreaterThan(1);
    expect(versions.at(0)!.final).toBe(false);
    expect(versions.at(0)!.speaking_ended_at).toBeNull();
    expect(expected.startsWith(versions.at(0)!.text)).toBe(true);
    expect(versions.at(-1)).toMatchObject({ final: true, text: expected, agent: true });
    expect(Date.parse(versions.at(-1)!.speaking_ended_at!)).toBeGreaterThanOrEqual(Date.parse(versions.at(-1)!.created_at));

    // The typed turn came back as the human's final transcription: on `message`, and as a text stream sent as theirs.
    const typedEcho = human.messages.filter((message) => !message.agent);
    expect(typedEcho).toMatchObject([{ final: true, text: 'What is the weather like today?', agent: false }]);
    await eventually(() =>
      expect(human.textStreams.some((stream) => stream.from === human.connection.identity && stream.text === 'What is the weather like today?')).toBe(true),
    );

    // The agent's transcript on lk.transcription text streams, with the LiveKit attributes.
    const agentFinal = (stream: (typeof human.textStreams)[number]) => stream.from === 'agent' && stream.attributes['lk.transcription_final'] === 'true';
    await eventually(() => expect(human.textStreams.some(agentFinal)).toBe(true));
    const finalStream = human.textStreams.find(agentFinal)!;
    expect(finalStream.text).toBe(expected);
    expect(finalStream.attributes['lk.segment_id']).toBe(versions[0]!.id);
    expect(finalStream.attributes['lk.transcribed_track_id']).toMatch(/^TR_/);

    // The agent's track carried audible speech, and it ended before the state went back to listening.
    const first = human.firstAudibleAfter(sentAt);
    expect(first).toBeDefined();
    const audible = human.heard.filter((frame) => frame.rms > AUDIBLE_RMS);
    const spokenMs = audible.length * 20;
    expect(spokenMs).toBeGreaterThan(2000);

    // Both utterances were committed, in order, with their speaking times.
    await eventually(() => expect(events.messages.map((message) => message.role)).toEqual(['user', 'assistant']));
    expect(events.messages[0]).toMatchObject({ role: 'user', content: 'What is the weather like today?' });
    expect(events.messages[1]).toMatchObject({ role: 'assistant', content: expected });
    expect(Date.parse(events.messages[1]!.speaking_ended_at!)).toBeGreaterThan(Date.parse(events.messages[1]!.speaking_started_at!));
    expect(metrics.find((turn) => turn.session === handle.sessionId)).toMatchObject({ source: 'text', interrupted: false });
    // The answer's tokens and speech were metered for the human.
    const usage = await test.server.services.store.db.selectFrom('usage_records').selectAll().where('human', '=', spec.humanIdentity).execute();
    expect(usage.map((record) => record.type).sort()).toEqual(['token_cnt', 'voice_synthesis_seconds']);
    expect(usage.find((record) => record.type === 'voice_synthesis_seconds')!.value).toBeGreaterThan(2);

    await tearDown(human, handle);
    expect(events.stops).toEqual([]);
  }, 60_000);

  it.skipIf(!sttAvailable)(
    'the agent audio is the spoken answer (decoded and recognised)',
    async () => {
      const { human, handle } = await setUp();
      await human.waitForState('listening');
      const startedAt = performance.now();
      await handle.speak('Please call me tomorrow morning.');
      await eventually(
        () => expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual(['Please call me tomorrow morning.']),
        20_000,
      );
      await human.waitForState('listening');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const audio = human.audioBetween(startedAt, performance.now());
      const heard = await transcribe(test.server.services.speech, audio, 48_000);
      expect(wordErrorRate('Please call me tomorrow morning.', heard), heard).toBeLessThan(0.3);
      await tearDown(human, handle);
    },
    60_000,
  );

  it('speak() says a text after the current utterance; answer_message is said first when the human joins', async () => {
    const identity = `human-typed-${humans++}`;
    const spec = await sessionSpec(test, identity, { output: { answer_message: 'Hello, I am your test agent.' } });
    const events = new RecordedEvents();
    const handle = await host.start(spec, events);
    // The agent waits for the human before saying the answer message.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(events.messages).toEqual([]);
    const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, identity);
    await handle.speak('And this was said through speak.');
    await eventually(
      () =>
        expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([
          'Hello, I am your test agent.',
          'And this was said through speak.',
        ]),
      20_000,
    );
    await eventually(() =>
      expect(events.messages.map((message) => message.content)).toEqual(['Hello, I am your test agent.', 'And this was said through speak.']),
    );
    expect(events.messages.every((message) => message.role === 'assistant')).toBe(true);
    await tearDown(human, handle);
  }, 60_000);

  it('without speech synthesis sends text only; without transcript streaming sends it once, whole', async () => {
    const textOnly = await setUp({ output: { speech_synthesis_enabled: false } });
    await textOnly.human.waitForState('listening');
    await textOnly.human.type('Just text please.');
    await eventually(() =>
      expect(textOnly.human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([offlineAnswer('Just text please.')]),
    );
    await textOnly.human.waitForState('listening');
    expect(textOnly.human.heard.filter((frame) => frame.rms > AUDIBLE_RMS)).toEqual([]);
    await tearDown(textOnly.human, textOnly.handle);

    const whole = await setUp({ output: { stream_transcript: false } });
    await whole.human.waitForState('listening');
    await whole.human.type('Send it whole.');
    await eventually(() => expect(whole.human.finalTranscriptions(true)).toHaveLength(1), 20_000);
    expect(whole.human.messages.filter((message) => message.agent)).toHaveLength(1);
    expect(whole.human.messages.find((message) => message.agent)).toMatchObject({ final: true, text: offlineAnswer('Send it whole.') });
    expect(whole.human.heard.some((frame) => frame.rms > AUDIBLE_RMS)).toBe(true);
    await tearDown(whole.human, whole.handle);
  }, 60_000);

  it('update() applies from the next turn', async () => {
    const { spec, human, handle } = await setUp();
    await human.waitForState('listening');
    handle.update({ ...spec.session.config, output: { ...spec.session.config.output, speech_synthesis_enabled: false } });
    await human.type('Now in text.');
    await eventually(() => expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([offlineAnswer('Now in text.')]), 20_000);
    await human.waitForState('listening');
    expect(human.heard.filter((frame) => frame.rms > AUDIBLE_RMS)).toEqual([]);
    handle.update({ ...spec.session.config, general: { ...spec.session.config.general, time_limit_s: 30 } });
    await eventually(() => expect(human.remainingSeconds.at(-1)).toBeLessThanOrEqual(30));
    await tearDown(human, handle);
  }, 60_000);

  it('a typed message interrupts the agent when interruptable: audio stops, the transcription ends with what was said, marked interrupted', async () => {
    const { human, events, handle } = await setUp();
    await human.waitForState('listening');
    const long = 'This is a long story. '.repeat(3) + 'It goes on and on, for a very long time, so that there is plenty of time to interrupt it. '.repeat(4);
    await handle.speak(long.trim());
    await human.waitForState('speaking');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await human.type('Stop.');
    await eventually(() => expect(human.finalTranscriptions(true).length).toBe(2), 20_000);
    const [interrupted, answer] = human.finalTranscriptions(true);
    expect(interrupted!.text.length).toBeGreaterThan(0);
    expect(interrupted!.text.length).toBeLessThan(long.length / 2);
    expect(long.startsWith(interrupted!.text.split(' ').slice(0, 3).join(' '))).toBe(true);
    // The cut line says so on the wire; the answer, said to its end, does not.
    expect(interrupted!.interrupted).toBe(true);
    expect(answer!.text).toBe(offlineAnswer('Stop.'));
    expect(answer!.interrupted).toBeUndefined();
    // The long story's audio stopped: all the agent said was its start and the short answer, less than the story alone
    // (over 25 s of speech in the agent's voice, Flite slt; the answer about 6 s).
    await human.waitForState('listening');
    const audibleFrames = human.heard.filter((frame) => frame.rms > AUDIBLE_RMS).length;
    const story = await fliteSpeech(test.server.services.speech, long.trim());
    const frame = story.sampleRate / 50;
    const storyFrames = Array.from({ length: Math.floor(story.pcm.length / frame) }, (_, index) =>
      rms(story.pcm.subarray(index * frame, (index + 1) * frame)),
    ).filter((level) => level > AUDIBLE_RMS).length;
    expect(audibleFrames).toBeLessThan(storyFrames);
    await eventually(() => expect(events.messages.map((message) => message.role)).toEqual(['assistant', 'user', 'assistant']));
    expect(events.messages[0]!.content).toBe(interrupted!.text);
    await tearDown(human, handle);
  }, 60_000);

  it('an LLM failing mid-answer: what came is said, the human is told, the agent keeps listening', async () => {
    const upstream = await startFakeOpenAiUpstream();
    try {
      const llm = await test.client.llms.create({
        name: 'failing',
        description: 'fails mid-stream',
        headers: [],
        model: 'fake-gpt',
        post_url: upstream.chatUrl,
      });
      upstream.enqueue({ kind: 'stream', chunks: textChunks(['Hello', ' there.', ' And']), after: 'error-event' });
      const { human, events, handle } = await setUp({ generative: { llm } });
      await human.waitForState('listening');
      await human.type('Hi');
      await eventually(() => expect(human.errors).toEqual([expect.stringMatching(/^The agent could not answer: /)]), 20_000);
      await eventually(() => expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual(['Hello there. And']), 20_000);
      await human.waitForState('listening');
      expect(events.stops).toEqual([]);
      // The next turn works.
      await human.type('Again');
      await eventually(() => expect(human.finalTranscriptions(true)).toHaveLength(2), 20_000);
      expect(human.finalTranscriptions(true)[1]!.text).toBe('Hello from the fake upstream.');
      await tearDown(human, handle);
    } finally {
      await upstream.close();
    }
  }, 60_000);

  it('without an STT engine: the human is told speech input is unavailable, typed turns still work', async () => {
    const { speech } = test.server.services;
    const deafHost = newHost({ speech: { tts: speech.tts, vad: speech.vad, stt: new UnavailableSttEngine('stt.provider = none (test)') } });
    const { human, handle } = await setUp({}, deafHost);
    await eventually(() => expect(human.errors).toEqual([expect.stringContaining('Speech input needs a speech-to-text provider')]), 20_000);
    expect(human.errors[0]).toContain('stt.provider = none (test)');
    await human.type('Can you read this?');
    await eventually(
      () => expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([offlineAnswer('Can you read this?')]),
      20_000,
    );
    await tearDown(human, handle);
    await deafHost.close();
  }, 60_000);

  it('time_limit_s counts down in the metadata, ends with time_limit_exceeded and reports the stop', async () => {
    const { human, events, handle } = await setUp({ general: { time_limit_s: 2 } });
    await eventually(() => expect(events.stops).toEqual([{ reason: 'time_limit_exceeded', detail: expect.any(String) }]), 10_000);
    await eventually(() => expect(human.states.at(-1)).toBe('time_limit_exceeded'));
    expect(human.remainingSeconds).toEqual([2, 1, 0]);
    await eventually(() => expect(human.agentLeft).toBe(true));
    // Nothing more is said or answered.
    await human.type('Are you there?');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(human.finalTranscriptions(true)).toEqual([]);
    await tearDown(human, handle);
  }, 30_000);

  it('a usage limit reached mid-session ends it with usage_limit_exceeded', async () => {
    const { spec, human, events, handle } = await setUp();
    await test.server.services.usageLimits.set(spec.session.project, spec.humanIdentity, [{ type: 'token_cnt', value: 0 }]);
    await human.waitForState('listening');
    await human.type('Hello?');
    await eventually(() => expect(events.stops.map((stop) => stop.reason)).toEqual(['usage_limit_exceeded']), 10_000);
    await eventually(() => expect(human.states.at(-1)).toBe('usage_limit_exceeded'));
    expect(human.errors.some((message) => message.includes('usage'))).toBe(true);
    await tearDown(human, handle);
  }, 30_000);

  it('stop() leaves the room; the human leaving for good stops the agent with human_left', async () => {
    const stopped = await setUp();
    await stopped.human.waitForState('listening');
    await stopped.handle.stop();
    await eventually(() => expect(stopped.human.agentLeft).toBe(true));
    expect(stopped.events.stops).toEqual([]);
    await stopped.human.leave();

    const quickHost = newHost({ tuning: { humanLeftGraceMs: 500 } });
    const left = await setUp({}, quickHost);
    await left.human.waitForState('listening');
    // Back within the grace period: the agent stays.
    await left.human.leave();
    const back = await HumanParticipant.join(test.server.services.media.transport, left.spec.session.id, left.spec.humanIdentity);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(left.events.stops).toEqual([]);
    await back.type('I am back.');
    await eventually(() => expect(back.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([offlineAnswer('I am back.')]), 20_000);
    await back.leave();
    await eventually(() => expect(left.events.stops.map((stop) => stop.reason)).toEqual(['human_left']), 5000);
    await quickHost.close();
  }, 30_000);
});

describe.skipIf(!sttAvailable)('voice agent: listening to speech (pocketsphinx)', () => {
  let test: TestServer;
  let host: AgentSessionHost;
  const metrics: TurnMetrics[] = [];
  let humans = 0;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
    host = agentHostFor(test, { onTurnMetrics: (turn) => metrics.push(turn) });
  });

  afterAll(async () => {
    await host?.close();
    await test?.close();
  });

  async function setUp(overrides: Parameters<typeof sessionSpec>[2] = {}) {
    const identity = `human-voice-${humans++}`;
    const spec = await sessionSpec(test, identity, overrides);
    const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, identity);
    const events = new RecordedEvents();
    const handle = await host.start(spec, events);
    await human.waitForState('listening');
    return { spec, human, events, handle };
  }

  it('hears the human, transcribes, answers and speaks; times each of 5 turns', async () => {
    const { human, events, handle } = await setUp();
    const sentences = [
      'Please call me tomorrow morning.',
      'I would like to book a table for two.',
      'The weather is nice today.',
      'Can you tell me a story about a dog?',
      'Thank you very much for your help.',
    ];
    const latencies: number[] = [];
    for (const [index, sentence] of sentences.entries()) {
      const speech = await fliteSpeech(test.server.services.speech, sentence);
      const { speechEndedAt } = await human.say(speech);
      await eventually(() => expect(human.finalTranscriptions(true)).toHaveLength(index + 1), 20_000);
      await human.waitForState('listening');

      const heard = human.finalTranscriptions(false)[index]!;
      expect(wordErrorRate(sentence, heard.text), heard.text).toBeLessThan(0.3);
      expect(heard.speaking_ended_at).not.toBeNull();
      expect(human.finalTranscriptions(true)[index]!.text).toBe(offlineAnswer(heard.text));
      const firstAudio = human.firstAudibleAfter(speechEndedAt);
      expect(firstAudio).toBeDefined();
      latencies.push(firstAudio!.at - speechEndedAt);
    }
    const own = metrics.filter((turn) => turn.session === handle.sessionId);
    expect(own).toHaveLength(5);
    // Every turn is timed stage by stage (the figures, and how they compare with the engines alone: `pnpm bench voice-agent`).
    const timed = {
      endOfSpeechDecisionMs: expect.any(Number),
      sttFinalMs: expect.any(Number),
      llmFirstTokenMs: expect.any(Number),
      ttsFirstAudioMs: expect.any(Number),
      responseMs: expect.any(Number),
    };
    for (const turn of own) expect(turn).toMatchObject({ source: 'voice', interrupted: false, ...timed });
    console.info(`[voice agent latency] ${JSON.stringify(summarize(latencies, own))}`);

    // The human's transcription grew (interim) and ended final, also on lk.transcription with the track id.
    const humanVersions = human.messages.filter((message) => !message.agent);
    expect(humanVersions.some((message) => !message.final)).toBe(true);
    const userStreams = human.textStreams.filter((stream) => stream.attributes['lk.transcribed_track_id'] === human.microphone.trackSid);
    expect(userStreams.some((stream) => stream.attributes['lk.transcription_final'] === 'true')).toBe(true);
    // Agent states went listening -> thinking -> speaking -> listening for every turn.
    expect(human.states.slice(1)).toEqual(['listening', ...sentences.flatMap(() => ['thinking', 'speaking', 'listening'])]);
    expect(events.messages.map((message) => message.role)).toEqual(sentences.flatMap(() => ['user', 'assistant']));
    await handle.stop();
    await human.leave();
  }, 120_000);

  it('barge-in: the human speaking over the agent stops its audio while they speak and ends its transcription', async () => {
    const { human, events, handle } = await setUp();
    const long = 'Let me tell you a long story about the sea and the ships that sail on it, from the harbour to the open ocean. '.repeat(4);
    await handle.speak(long.trim());
    await human.waitForState('speaking');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const speech = await fliteSpeech(test.server.services.speech, 'Wait, stop talking please.');
    const saying = human.say(speech);
    const speechStartedAt = performance.now() + speech.speechStartMs;
    await eventually(() => expect(human.finalTranscriptions(true).length).toBeGreaterThanOrEqual(1), 10_000);
    const { speechEndedAt } = await saying;
    // The agent went quiet while the human was still speaking, and stayed quiet until they finished (its answer to the
    // interruption comes after their turn). How soon it stops: `pnpm bench voice-agent`, barge-in.
    const lastLoud = human.lastAudibleBeforeQuiet(speechStartedAt)!;
    expect(lastLoud.at).toBeLessThan(speechEndedAt);
    expect(human.heard.filter((frame) => frame.rms > AUDIBLE_RMS && frame.at > lastLoud.at && frame.at <= speechEndedAt)).toEqual([]);
    const interrupted = human.finalTranscriptions(true)[0]!;
    expect(interrupted.text.length).toBeLessThan(long.length / 3);
    expect(interrupted.speaking_ended_at).not.toBeNull();
    expect(interrupted.interrupted).toBe(true);
    // The interruption becomes the next turn.
    await eventually(() => expect(human.finalTranscriptions(true)).toHaveLength(2), 20_000);
    expect(human.finalTranscriptions(true)[1]!.text).toMatch(/^You said: /);
    await eventually(() => expect(events.messages.map((message) => message.role)).toEqual(['assistant', 'user', 'assistant']));
    await handle.stop();
    await human.leave();
  }, 60_000);

  it('a microphone that goes quiet after speaking (Opus DTX) still ends the turn', async () => {
    const { human, handle } = await setUp();
    const speech = await fliteSpeech(test.server.services.speech, 'Good morning to you.');
    await human.say(speech, 0);
    await eventually(() => expect(human.finalTranscriptions(true)).toHaveLength(1), 20_000);
    expect(wordErrorRate('Good morning to you.', human.finalTranscriptions(false)[0]!.text)).toBeLessThan(0.5);
    await handle.stop();
    await human.leave();
  }, 60_000);

  it('not interruptable with parallel listening: speech while the agent speaks is answered afterwards', async () => {
    const { human, handle } = await setUp({ input: { interruptable: false, parallel_listening: true } });
    const text = 'I keep talking while you speak, and I will answer you once I am done with this sentence.';
    await handle.speak(text);
    await human.waitForState('speaking');
    await human.say(await fliteSpeech(test.server.services.speech, 'Please call me tomorrow morning.'));
    await eventually(() => expect(human.finalTranscriptions(true)).toHaveLength(2), 30_000);
    const [first, second] = human.finalTranscriptions(true);
    expect(first!.text).toBe(text);
    expect(second!.text).toBe(offlineAnswer(human.finalTranscriptions(false)[0]!.text));
    await handle.stop();
    await human.leave();
  }, 60_000);

  it('not interruptable: speech while the agent speaks is ignored', async () => {
    const { human, events, handle } = await setUp({ input: { interruptable: false } });
    const text = 'I will not be interrupted, whatever you say while I am speaking to you right now.';
    await handle.speak(text);
    await human.waitForState('speaking');
    await human.say(await fliteSpeech(test.server.services.speech, 'Hello, can you hear me?'), 300);
    await eventually(() => expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([text]), 20_000);
    await human.waitForState('listening');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(human.finalTranscriptions(false)).toEqual([]);
    expect(events.messages.map((message) => message.role)).toEqual(['assistant']);
    await handle.stop();
    await human.leave();
  }, 60_000);
});

function summarize(endToEnd: number[], turns: TurnMetrics[]) {
  const medianOf = (values: Array<number | undefined>) => {
    const defined = values.filter((value): value is number => value !== undefined).sort((a, b) => a - b);
    const middle = Math.floor(defined.length / 2);
    return Math.round(defined.length % 2 ? defined[middle]! : (defined[middle - 1]! + defined[middle]!) / 2);
  };
  return {
    endToEndMs: endToEnd.map(Math.round),
    endToEndMedianMs: medianOf(endToEnd),
    agentResponseMedianMs: medianOf(turns.map((turn) => turn.responseMs)),
    vadEndOfSpeechMedianMs: medianOf(turns.map((turn) => turn.endOfSpeechDecisionMs)),
    sttFinalMedianMs: medianOf(turns.map((turn) => turn.sttFinalMs)),
    llmFirstTokenMedianMs: medianOf(turns.map((turn) => turn.llmFirstTokenMs)),
    ttsFirstAudioMedianMs: medianOf(turns.map((turn) => turn.ttsFirstAudioMs)),
  };
}
