import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnMetrics } from '../../src/server/kernel/ports/turn-metrics.js';
import type { AgentSessionHost } from '../../src/server/kernel/ports/agent-session-host.js';
import { resampleLinear } from '../../src/server/engines/speech/codecs/resample.js';
import { firstTokenChunks, startFakeOpenAiUpstream, textChunks, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';
import { answersTheSame } from '../../src/server/voice/turn-taking/answer-preparer.js';
import { agentHostFor, fliteSpeech, HumanParticipant, RecordedEvents, sessionSpec } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { turnCorpus } from '../../src/testing/turn-corpus.js';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const ANSWER = 'Sure, I can help with that. Here is what I would suggest.'.split(/(?= )/);
/** The hosted-like model: its first token 200 ms after the request, then ~30 tokens/s. */
const FIRST_TOKEN_MS = 200;

interface UsageRow {
  value: number;
  metadata: { prepared?: boolean; outcome?: string; realtime_session?: string };
}

/**
 * Preemptive answers with a voice agent on the embedded stack (real VAD and STT) and a hosted-like model (a local
 * fake OpenAI upstream): asked at the pause, played when the turn ends with the same words, thrown away and asked
 * again when the human goes on, its tokens metered either way.
 */
describe.skipIf(!pocketsphinxAvailable())('voice agent: answers prepared at the pause', () => {
  let test: TestServer;
  let host: AgentSessionHost;
  let upstream: FakeOpenAiUpstream;
  let llm: Awaited<ReturnType<TestServer['client']['llms']['create']>>;
  const metrics: TurnMetrics[] = [];
  let humans = 0;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
    host = agentHostFor(test, { onTurnMetrics: (turn) => metrics.push(turn) });
    upstream = await startFakeOpenAiUpstream();
    upstream.answerByDefault({ kind: 'stream', chunks: firstTokenChunks(ANSWER), firstChunkDelayMs: FIRST_TOKEN_MS, delayMs: 33 });
    llm = await test.client.llms.create({ name: 'hosted-like', description: 'fake upstream', headers: [], model: 'hosted-like', post_url: upstream.chatUrl });
  });

  afterAll(async () => {
    await host?.close();
    await upstream?.close();
    await test?.close();
  });

  async function setUp() {
    const identity = `human-preempt-${humans++}`;
    const spec = await sessionSpec(test, identity, { generative: { llm } });
    const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, identity);
    const handle = await host.start(spec, new RecordedEvents());
    await human.waitForState('listening');
    return { spec, human, handle };
  }

  const lastUserMessage = (body: Record<string, unknown>) =>
    (body.messages as Array<{ role: string; content: string }>).filter((message) => message.role === 'user').at(-1)?.content;

  async function usageOf(human: string): Promise<UsageRow[]> {
    const rows = await test.server.services.store.db
      .selectFrom('usage_records')
      .select(['value', 'metadata'])
      .where('human', '=', human)
      .where('type', '=', 'token_cnt')
      .execute();
    return rows.map((row) => ({ value: row.value, metadata: JSON.parse(row.metadata) as UsageRow['metadata'] }));
  }

  it('a finished sentence: the answer asked for at the pause plays when the turn ends, before a request at the end could have answered', async () => {
    const { spec, human, handle } = await setUp();
    const before = upstream.requests.length;
    const { speechEndedAt } = await human.say(await fliteSpeech(test.server.services.speech, 'What time does the train leave?'));
    await eventually(() => expect(human.finalTranscriptions(true)).toHaveLength(1), 20_000);
    await human.waitForState('listening');

    const turn = metrics.find((candidate) => candidate.session === handle.sessionId && candidate.source === 'voice')!;
    expect(turn.preparedAnswer).toBe(true);
    // The detector read the words at the pause as a finished turn and chose its wait accordingly; the turn ended on
    // that reading, and the human's app is told it (`turn_metrics`).
    const reading = turn.endOfTurn!;
    expect(['question', 'statement', 'unsure'], `read as ${reading.reason}`).toContain(reading.reason);
    expect(reading.waitMs).toBeLessThan(1000);
    await eventually(() => expect(human.turnMetrics.filter((reported) => reported.source === 'voice')).toHaveLength(1));
    expect(human.turnMetrics.find((reported) => reported.source === 'voice')).toMatchObject({
      prepared_answer: true,
      discarded_answers: turn.discardedAnswers,
      end_of_turn: { reason: reading.reason, probability: reading.probability, wait_ms: Math.round(reading.waitMs) },
    });
    // Asked with the decoder's early words when the voice went quiet, and again if the segment's final read other
    // words (that answer is thrown away, and counted).
    const requests = upstream.requests.slice(before);
    expect(requests).toHaveLength(1 + turn.discardedAnswers!);
    expect(turn.discardedAnswers).toBeLessThanOrEqual(1);
    // The answer played was asked with the words the turn ended with (inflections aside: "leave" / "leaves" is
    // the same question), at the pause: it is the prepared one, and no request was made once the turn was over.
    const heard = human.finalTranscriptions(false)[0]!.text;
    const played = requests.at(-1)!;
    expect(answersTheSame(lastUserMessage(played.body)!, heard), `asked "${lastUserMessage(played.body)}", heard "${heard}"`).toBe(true);
    // What the human hears is that answer, and only after it was asked (how much sooner than asking at the decision:
    // `pnpm bench voice-agent`, the hosted-like profile).
    const firstAudio = human.firstAudibleAfter(speechEndedAt)!;
    expect(played.receivedAt).toBeLessThan(firstAudio.at);
    expect(human.finalTranscriptions(true)[0]!.text).toBe(ANSWER.join(''));
    // Metered as the session's prepared answers: the one played completed, one thrown away (even before its first
    // token: its prompt was sent) aborted.
    await eventually(async () => expect(await usageOf(spec.humanIdentity)).toHaveLength(requests.length));
    const usage = await usageOf(spec.humanIdentity);
    expect(usage.filter((row) => row.metadata.outcome === 'completed').map((row) => row.metadata)).toEqual([
      expect.objectContaining({ prepared: true, realtime_session: handle.sessionId }),
    ]);
    expect(usage.filter((row) => row.metadata.outcome === 'aborted')).toHaveLength(turn.discardedAnswers!);
    for (const row of usage) expect(row.value).toBeGreaterThan(0);
    await handle.stop();
    await human.leave();
  }, 60_000);

  it('a pause mid-sentence (corpus): the answer prepared at the pause is thrown away when the human goes on, its tokens metered, and the whole sentence is answered', async () => {
    const { spec, human, handle } = await setUp();
    // "I was thinking that we could | meet on Friday": an 800 ms pause, Flite.
    const corpus = turnCorpus();
    const item = corpus.items.find((candidate) => candidate.id === '07-flite-slt')!;
    const decoded = await test.server.services.speech.codecs.mp3.decode(readFileSync(`${corpus.folder}${item.file}`));
    const before = upstream.requests.length;
    // The answer prepared at the pause streams slowly (~2.8 s): it is still coming when the human goes on.
    const [, ...slow] = textChunks(ANSWER);
    upstream.enqueue({ kind: 'stream', chunks: slow, firstChunkDelayMs: FIRST_TOKEN_MS, delayMs: 250 });
    await human.say({ pcm: resampleLinear(decoded.pcm, decoded.sampleRate, human.sampleRate), speechEndMs: item.speechEndMs });
    await eventually(() => expect(human.finalTranscriptions(true)).toHaveLength(1), 20_000);
    await human.waitForState('listening');

    const turn = metrics.find((candidate) => candidate.session === handle.sessionId && candidate.source === 'voice')!;
    // One human turn: the agent did not cut in at the pause.
    expect(human.finalTranscriptions(false)).toHaveLength(1);
    const heard = human.finalTranscriptions(false)[0]!.text;
    expect(heard.split(' ').length).toBeGreaterThanOrEqual(8);
    expect(turn.discardedAnswers).toBeGreaterThanOrEqual(1);
    // The turn ended on a reading of the words after the pause the human went on from: the whole sentence.
    expect(turn.endOfTurn).toBeDefined();
    await eventually(() =>
      expect(human.turnMetrics.find((reported) => reported.source === 'voice')).toMatchObject({
        end_of_turn: { reason: turn.endOfTurn!.reason, wait_ms: Math.round(turn.endOfTurn!.waitMs) },
      }),
    );
    const requests = upstream.requests.slice(before);
    // The answer prepared at the pause was asked with the words before it, and aborted when the human went on.
    const [first] = requests;
    expect(heard.startsWith(lastUserMessage(first!.body)!)).toBe(true);
    expect(lastUserMessage(first!.body)).not.toBe(heard);
    await upstream.waitForAbort(first!, 5_000);
    // The answer played was asked with the whole sentence.
    expect(lastUserMessage(requests.at(-1)!.body)).toBe(heard);
    expect(human.finalTranscriptions(true)[0]!.text).toBe(ANSWER.join(''));
    // Both are metered: the thrown-away one as an aborted prepared answer, with its prompt and what it generated.
    await eventually(async () => expect(await usageOf(spec.humanIdentity)).toHaveLength(2));
    const usage = await usageOf(spec.humanIdentity);
    const aborted = usage.filter((row) => row.metadata.outcome === 'aborted');
    expect(aborted).toEqual([{ value: expect.any(Number), metadata: expect.objectContaining({ prepared: true, realtime_session: handle.sessionId }) }]);
    const completed = usage.find((row) => row.metadata.outcome === 'completed')!;
    // Its prompt is shorter than the played one's, but it generated tokens before the abort.
    expect(aborted[0]!.value).toBeGreaterThan(0);
    expect(completed.metadata.prepared).toBe(true);
    await handle.stop();
    await human.leave();
  }, 60_000);
});
