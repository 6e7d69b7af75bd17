import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resampleLinear } from '../../src/server/engines/speech/codecs/resample.js';
import { answersTheSame } from '../../src/server/voice/index.js';
import { fliteSpeech, HumanParticipant } from '../../src/testing/agent-harness.js';
import { firstTokenChunks, startFakeOpenAiUpstream, textChunks, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { turnCorpus } from '../../src/testing/turn-corpus.js';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const ANSWER = 'Sure, I can help with that. Here is what I would suggest.'.split(/(?= )/);
/** The hosted-like model: its first token 200 ms after the request, then ~30 tokens/s. */
const FIRST_TOKEN_MS = 200;

type Overrides = Parameters<TestServer['client']['appRuns']['create']>[0]['overrides'];

/**
 * An app run of the Simple Voice AI template on the embedded stack (real VAD and STT) behaves as the built-in agent
 * does (one voice pipeline, server/voice/): adaptive end of turn, the answer prepared at the pause by the LLM node
 * and played when the turn ends with the same words, thrown away when the human goes on, `turn_metrics` on the
 * room's data topic, and the STT node's `turn_detection` setting honoured.
 */
describe.skipIf(!pocketsphinxAvailable())('app runs: the voice pipeline in a graph', () => {
  let test: TestServer;
  let upstream: FakeOpenAiUpstream;
  let llmId: string;
  let humans = 0;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
    upstream = await startFakeOpenAiUpstream();
    upstream.answerByDefault({ kind: 'stream', chunks: firstTokenChunks(ANSWER), firstChunkDelayMs: FIRST_TOKEN_MS, delayMs: 33 });
    const llm = await test.client.llms.create({
      name: 'hosted-like',
      description: 'fake upstream',
      headers: [],
      model: 'hosted-like',
      post_url: upstream.chatUrl,
    });
    llmId = llm.id;
  });

  afterAll(async () => {
    await upstream?.close();
    await test?.close();
  });

  async function runSimpleVoiceAi(overrides: Overrides = []) {
    const app = await test.client.appTemplates.apply('app_template_simple_voice_ai', { name: `voice turns ${humans}` });
    const run = await test.client.appRuns.create({
      app: app.id,
      overrides: [{ node: 'llm', pad: 'model', value: { type: 'string', value: llmId } }, ...(overrides ?? [])],
    });
    const identity = `human-voice-turns-${humans++}`;
    const human = await HumanParticipant.join(test.server.services.media.transport, run.app_run.id, identity);
    await eventually(() => expect(human.connection.participants().map((participant) => participant.identity)).toContain('agent'), 10_000);
    return { run, human };
  }

  const lastUserMessage = (body: Record<string, unknown>) =>
    (body.messages as Array<{ role: string; content: string }>).filter((message) => message.role === 'user').at(-1)?.content;

  it('a finished sentence: the LLM node plays the answer asked for at the pause; the turn is measured on turn_metrics', async () => {
    const { human } = await runSimpleVoiceAi();
    const before = upstream.requests.length;
    const { speechEndedAt } = await human.say(await fliteSpeech(test.server.services.speech, 'What time does the train leave?'));
    await eventually(() => expect(human.turnMetrics.filter((reported) => reported.source === 'voice')).toHaveLength(1), 20_000);
    const turn = human.turnMetrics.find((reported) => reported.source === 'voice')!;
    // Adaptive end of turn: the words at the pause were read and chose the wait.
    expect(['question', 'statement', 'unsure'], `read as ${turn.end_of_turn?.reason}`).toContain(turn.end_of_turn?.reason);
    expect(turn).toMatchObject({ turn: 0, interrupted: false, prepared_answer: true, response_ms: expect.any(Number), llm_first_token_ms: expect.any(Number) });
    expect(turn.end_of_speech_decision_ms).toEqual(expect.any(Number));
    // Asked at the pause with the words the turn ended with, before the first audio; nothing asked at the end.
    const requests = upstream.requests.slice(before);
    expect(requests).toHaveLength(1 + (turn.discarded_answers ?? 0));
    const played = requests.at(-1)!;
    const firstAudio = human.firstAudibleAfter(speechEndedAt)!;
    expect(played.receivedAt).toBeLessThan(firstAudio.at);
    const probeHeard = lastUserMessage(played.body)!;
    expect(answersTheSame(probeHeard, 'What time does the train leave') || probeHeard.split(' ').length >= 4, `asked "${probeHeard}"`).toBe(true);
    await human.leave();
  }, 60_000);

  it('a pause mid-sentence (corpus): the answer prepared at the pause is thrown away when the human goes on; the whole sentence is answered', async () => {
    const { human } = await runSimpleVoiceAi();
    // "I was thinking that we could | meet on Friday": an 800 ms pause, Flite.
    const corpus = turnCorpus();
    const item = corpus.items.find((candidate) => candidate.id === '07-flite-slt')!;
    const decoded = await test.server.services.speech.codecs.mp3.decode(readFileSync(`${corpus.folder}${item.file}`));
    const before = upstream.requests.length;
    // The answer prepared at the pause streams slowly: it is still coming when the human goes on.
    const [, ...slow] = textChunks(ANSWER);
    upstream.enqueue({ kind: 'stream', chunks: slow, firstChunkDelayMs: FIRST_TOKEN_MS, delayMs: 250 });
    await human.say({ pcm: resampleLinear(decoded.pcm, decoded.sampleRate, human.sampleRate), speechEndMs: item.speechEndMs });
    await eventually(() => expect(human.turnMetrics.filter((reported) => reported.source === 'voice')).toHaveLength(1), 20_000);
    const turn = human.turnMetrics.find((reported) => reported.source === 'voice')!;
    expect(turn.discarded_answers).toBeGreaterThanOrEqual(1);
    expect(turn.end_of_turn).toBeDefined();
    const requests = upstream.requests.slice(before);
    const [first] = requests;
    await upstream.waitForAbort(first!, 5_000);
    // The answer played was asked with the whole sentence, longer than the words at the pause.
    const whole = lastUserMessage(requests.at(-1)!.body)!;
    expect(whole.startsWith(lastUserMessage(first!.body)!)).toBe(true);
    expect(whole.split(' ').length).toBeGreaterThan(lastUserMessage(first!.body)!.split(' ').length);
    await human.leave();
  }, 60_000);

  it("the STT node's turn_detection: fixed silence reads no words and prepares nothing; a bad value is refused naming it", async () => {
    const { human } = await runSimpleVoiceAi([{ node: 'stt', pad: 'turn_detection', value: { type: 'object', value: { mode: 'fixed', silence_ms: 600 } } }]);
    const before = upstream.requests.length;
    await human.say(await fliteSpeech(test.server.services.speech, 'What time does the train leave?'));
    await eventually(() => expect(human.turnMetrics.filter((reported) => reported.source === 'voice')).toHaveLength(1), 20_000);
    const turn = human.turnMetrics.find((reported) => reported.source === 'voice')!;
    expect(turn.end_of_turn).toBeUndefined();
    expect(turn).toMatchObject({ prepared_answer: false, discarded_answers: 0 });
    expect(upstream.requests.slice(before)).toHaveLength(1);
    await human.leave();

    const app = await test.client.appTemplates.apply('app_template_simple_voice_ai', { name: 'bad turn detection' });
    await expect(
      test.client.appRuns.create({
        app: app.id,
        overrides: [{ node: 'stt', pad: 'turn_detection', value: { type: 'object', value: { mode: 'adaptive', min_wait_ms: 900, max_wait_ms: 300 } } }],
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/turn_detection.*max_wait_ms/) });
  }, 60_000);
});
