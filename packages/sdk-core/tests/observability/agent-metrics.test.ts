import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fliteSpeech, HumanParticipant, offlineAnswer, RecordedEvents, sessionSpec } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';
import { scrape, type Scrape } from './prometheus-text.js';

const sttAvailable = pocketsphinxAvailable();

/** The turn histograms' sample counts and sums for one source, and the turn counter. */
function turns(metrics: Scrape, source: string) {
  const histogram = (name: string) => ({
    count: metrics.value(`palaver_agent_turn_${name}_seconds_count`, { source }),
    sum: metrics.value(`palaver_agent_turn_${name}_seconds_sum`, { source }),
  });
  return {
    total: metrics.value('palaver_agent_turns_total', { source, interrupted: 'false' }),
    response: histogram('response'),
    sttFinal: histogram('stt_final'),
    llmFirstToken: histogram('llm_first_token'),
    ttsFirstAudio: histogram('tts_first_audio'),
  };
}

// The platform's own agent host (services.agents, wired by the composition root) runs the session, so what is
// tested is the route from the agent's turn measurements to /metrics, not a host built for the test.
describe.each(await storeKinds())('voice agent metrics on /metrics (%s)', (kind) => {
  let test: TestServer;

  beforeAll(async () => {
    test = await startTestServer(kind);
    await test.server.listen(0, '127.0.0.1');
  });
  afterAll(async () => test?.close());

  it('gauges the live agents, rooms and participants; records the turn histograms of a typed and a spoken turn, in seconds', async () => {
    const before = await scrape(test.server);
    const identity = `human-metrics-${kind}`;
    const spec = await sessionSpec(test, identity);
    const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, identity);
    const handle = await test.server.services.agents.start(spec, new RecordedEvents());
    await human.waitForState('listening');

    const live = await scrape(test.server);
    expect(live.value('palaver_realtime_agent_sessions')).toBe(before.value('palaver_realtime_agent_sessions') + 1);
    expect(live.value('palaver_media_rooms')).toBe(before.value('palaver_media_rooms') + 1);
    // The human and the agent.
    expect(live.value('palaver_media_participants')).toBe(before.value('palaver_media_participants') + 2);

    await human.type('What is the weather like today?');
    await eventually(
      () => expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([offlineAnswer('What is the weather like today?')]),
      20_000,
    );
    await human.waitForState('listening');
    let typed!: ReturnType<typeof turns>;
    await eventually(async () => {
      typed = turns(await scrape(test.server), 'text');
      expect(typed.total - turns(before, 'text').total).toBe(1);
    });
    const typedBefore = turns(before, 'text');
    expect(typed.response.count - typedBefore.response.count).toBe(1);
    expect(typed.llmFirstToken.count - typedBefore.llmFirstToken.count).toBe(1);
    expect(typed.ttsFirstAudio.count - typedBefore.ttsFirstAudio.count).toBe(1);
    // A typed turn has no speech to recognise.
    expect(typed.sttFinal.count - typedBefore.sttFinal.count).toBe(0);
    // Seconds, not milliseconds: the histogram holds the response time the agent told the human in ms (turn_metrics).
    await eventually(() => expect(human.turnMetrics.filter((turn) => turn.source === 'text')).toHaveLength(1));
    const typedReported = human.turnMetrics.find((turn) => turn.source === 'text')!;
    expect(typed.response.sum - typedBefore.response.sum).toBeCloseTo(typedReported.response_ms! / 1000, 2);

    if (sttAvailable) {
      const speech = await fliteSpeech(test.server.services.speech, 'Please call me tomorrow morning.');
      await human.say(speech);
      await eventually(() => expect(human.finalTranscriptions(true)).toHaveLength(2), 20_000);
      await human.waitForState('listening');
      const spokenBefore = turns(before, 'voice');
      let spoken!: ReturnType<typeof turns>;
      await eventually(async () => {
        spoken = turns(await scrape(test.server), 'voice');
        expect(spoken.total - spokenBefore.total).toBe(1);
      });
      expect(spoken.sttFinal.count - spokenBefore.sttFinal.count).toBe(1);
      expect(spoken.response.count - spokenBefore.response.count).toBe(1);
      expect(spoken.llmFirstToken.count - spokenBefore.llmFirstToken.count).toBe(1);
      expect(spoken.ttsFirstAudio.count - spokenBefore.ttsFirstAudio.count).toBe(1);
      await eventually(() => expect(human.turnMetrics.filter((turn) => turn.source === 'voice')).toHaveLength(1));
      const spokenReported = human.turnMetrics.find((turn) => turn.source === 'voice')!;
      expect(spoken.sttFinal.sum - spokenBefore.sttFinal.sum).toBeCloseTo(spokenReported.stt_final_ms! / 1000, 2);
      expect(spoken.response.sum - spokenBefore.response.sum).toBeCloseTo(spokenReported.response_ms! / 1000, 2);
    }

    await handle.stop();
    await human.leave();
    await eventually(async () => {
      const after = await scrape(test.server);
      expect(after.value('palaver_realtime_agent_sessions')).toBe(before.value('palaver_realtime_agent_sessions'));
      expect(after.value('palaver_media_participants')).toBe(before.value('palaver_media_participants'));
    });
  }, 90_000);
});
