import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentSessionHost, AgentSessionSpec } from '../../src/server/kernel/ports/agent-session-host.js';
import type { VoiceAgentHostDependencies } from '../../src/server/agent/voice-agent-host.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { AUDIBLE_RMS, agentHostFor, HumanParticipant, RecordedEvents, offlineAnswer, sessionSpec } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';

const JOIN_TIMEOUT_MS = 800;

describe('voice agent: a human who never joins, and the voice_synthesis_seconds limit', () => {
  let test: TestServer;
  let host: AgentSessionHost;
  let humans = 0;

  function newHost(overrides: Partial<VoiceAgentHostDependencies> = {}): AgentSessionHost {
    return agentHostFor(test, { tuning: { humanJoinTimeoutMs: JOIN_TIMEOUT_MS }, ...overrides });
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

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** A session whose human has `voice_synthesis_seconds` limit `limit`, of which `used` are already used. */
  async function budgetedSpec(limit: number, used: number, overrides: Parameters<typeof sessionSpec>[2] = {}): Promise<AgentSessionSpec> {
    const spec = await sessionSpec(test, `human-limits-${humans++}`, overrides);
    const { services } = test.server;
    await services.usageLimits.set(spec.session.project, spec.humanIdentity, [{ type: 'voice_synthesis_seconds', value: limit }]);
    if (used > 0)
      await services.usage.record({ project: spec.session.project, human: spec.humanIdentity }, 'voice_synthesis_seconds', used, { source: 'test' });
    return spec;
  }

  async function usageOf(human: string, type: string) {
    return test.server.services.store.db.selectFrom('usage_records').selectAll().where('human', '=', human).where('type', '=', type).execute();
  }

  it('a human who never joins: the agent stops with human_left after the join timeout and reports it once', async () => {
    const spec = await sessionSpec(test, `human-limits-${humans++}`);
    // Someone else in the room (an observer) is not the human and does not keep the agent.
    const observer = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, `observer-${humans}`);
    const events = new RecordedEvents();
    const handle = await host.start(spec, events);
    // Stopped by the join timeout it was given (when that timer fires: human-presence.test.ts, on a fake clock).
    await eventually(
      () => expect(events.stops).toEqual([{ reason: 'human_left', detail: `the human did not join within ${JOIN_TIMEOUT_MS / 1000} s` }]),
      20_000,
    );
    await eventually(() => expect(observer.agentLeft).toBe(true));
    // Reported once; a later stop (the service ending the session) does not report again.
    await handle.stop();
    await sleep(300);
    expect(events.stops).toHaveLength(1);
    // The host forgot it: starting the session again runs a new agent.
    const again = new RecordedEvents();
    const restarted = await host.start(spec, again);
    expect(restarted).not.toBe(handle);
    await restarted.stop();
    expect(again.stops).toEqual([]);
    await observer.leave();
  }, 30_000);

  it('a human who joins within the timeout keeps the session', async () => {
    const spec = await sessionSpec(test, `human-limits-${humans++}`);
    const events = new RecordedEvents();
    const handle = await host.start(spec, events);
    await sleep(JOIN_TIMEOUT_MS / 2);
    const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, spec.humanIdentity);
    await sleep(JOIN_TIMEOUT_MS * 2);
    expect(events.stops).toEqual([]);
    expect(human.agentLeft).toBe(false);
    await human.waitForState('listening');
    await human.type('Still there?');
    await eventually(() => expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([offlineAnswer('Still there?')]), 20_000);
    await handle.stop();
    await human.leave();
    expect(events.stops).toEqual([]);
  }, 30_000);

  it('voice_synthesis_seconds used up: a typed turn ends in usage_limit_exceeded, unsaid and without asking the model', async () => {
    const spec = await budgetedSpec(1, 1.5);
    const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, spec.humanIdentity);
    const events = new RecordedEvents();
    const handle = await host.start(spec, events);
    await human.waitForState('listening');
    const sentAt = performance.now();
    await human.type('Hello?');
    await eventually(
      () => expect(events.stops).toEqual([{ reason: 'usage_limit_exceeded', detail: expect.stringContaining('voice_synthesis_seconds') }]),
      10_000,
    );
    await eventually(() => expect(human.states.at(-1)).toBe('usage_limit_exceeded'));
    expect(human.states).not.toContain('thinking');
    expect(human.states).not.toContain('speaking');
    await eventually(() => expect(human.agentLeft).toBe(true));
    expect(human.errors.some((message) => message.startsWith('Usage limit reached'))).toBe(true);
    // No agent audio, no agent transcription, no tokens; the human's message is kept.
    expect(human.firstAudibleAfter(sentAt)).toBeUndefined();
    expect(human.transcriptions(true)).toEqual([]);
    expect(await usageOf(spec.humanIdentity, 'token_cnt')).toEqual([]);
    expect((await usageOf(spec.humanIdentity, 'voice_synthesis_seconds')).map((record) => record.value)).toEqual([1.5]);
    expect(events.messages.map((message) => message.role)).toEqual(['user']);
    await handle.stop();
    await human.leave();
  }, 30_000);

  it('voice_synthesis_seconds used up: answer_message and speak() are not said either', async () => {
    const greeted = await budgetedSpec(0, 0, { output: { answer_message: 'Hello, I am your test agent.' } });
    const greetedEvents = new RecordedEvents();
    const greetedHandle = await host.start(greeted, greetedEvents);
    const greetedHuman = await HumanParticipant.join(test.server.services.media.transport, greeted.session.id, greeted.humanIdentity);
    await eventually(() => expect(greetedEvents.stops.map((stop) => stop.reason)).toEqual(['usage_limit_exceeded']), 10_000);
    await eventually(() => expect(greetedHuman.agentLeft).toBe(true));
    expect(greetedHuman.states.at(-1)).toBe('usage_limit_exceeded');
    expect(greetedHuman.transcriptions(true)).toEqual([]);
    expect(greetedHuman.heard.some((frame) => frame.rms > AUDIBLE_RMS)).toBe(false);
    expect(greetedEvents.messages).toEqual([]);
    await greetedHandle.stop();
    await greetedHuman.leave();

    const spoken = await budgetedSpec(2, 2);
    const human = await HumanParticipant.join(test.server.services.media.transport, spoken.session.id, spoken.humanIdentity);
    const events = new RecordedEvents();
    const handle = await host.start(spoken, events);
    await human.waitForState('listening');
    await handle.speak('This must not be said.');
    await eventually(() => expect(events.stops.map((stop) => stop.reason)).toEqual(['usage_limit_exceeded']), 10_000);
    await eventually(() => expect(human.agentLeft).toBe(true));
    expect(human.states.at(-1)).toBe('usage_limit_exceeded');
    expect(human.transcriptions(true)).toEqual([]);
    expect(human.heard.some((frame) => frame.rms > AUDIBLE_RMS)).toBe(false);
    await expect(handle.speak('Nor this.')).rejects.toThrow(/stopped/);
    await human.leave();
  }, 30_000);

  it('a human with budget is answered with speech until the budget is used up; text-only sessions need none', async () => {
    const spec = await budgetedSpec(1, 0);
    const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, spec.humanIdentity);
    const events = new RecordedEvents();
    const handle = await host.start(spec, events);
    await human.waitForState('listening');
    const sentAt = performance.now();
    await human.type('What time is it?');
    await eventually(
      () => expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([offlineAnswer('What time is it?')]),
      20_000,
    );
    expect(human.firstAudibleAfter(sentAt)).toBeDefined();
    // The answer spoke more than the 1 s left: recorded, and the next turn is refused.
    await eventually(async () => expect((await usageOf(spec.humanIdentity, 'voice_synthesis_seconds')).length).toBe(1));
    expect((await usageOf(spec.humanIdentity, 'voice_synthesis_seconds'))[0]!.value).toBeGreaterThan(1);
    expect(events.stops).toEqual([]);
    await human.waitForState('listening');
    const secondAt = performance.now();
    await human.type('And now?');
    await eventually(() => expect(events.stops.map((stop) => stop.reason)).toEqual(['usage_limit_exceeded']), 10_000);
    expect(human.finalTranscriptions(true)).toHaveLength(1);
    await eventually(() => expect(human.agentLeft).toBe(true));
    expect(human.firstAudibleAfter(secondAt)).toBeUndefined();
    await handle.stop();
    await human.leave();

    // Without speech synthesis the same used-up budget does not matter: the answer is text.
    const textOnly = await budgetedSpec(0, 0, { output: { speech_synthesis_enabled: false } });
    const reader = await HumanParticipant.join(test.server.services.media.transport, textOnly.session.id, textOnly.humanIdentity);
    const textEvents = new RecordedEvents();
    const textHandle = await host.start(textOnly, textEvents);
    await reader.waitForState('listening');
    await reader.type('Hi.');
    await eventually(() => expect(reader.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([offlineAnswer('Hi.')]), 20_000);
    expect(textEvents.stops).toEqual([]);
    await textHandle.stop();
    await reader.leave();
  }, 60_000);
});
