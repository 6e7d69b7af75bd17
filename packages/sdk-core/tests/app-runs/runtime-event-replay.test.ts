import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HumanParticipant } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { RuntimeApiProbe } from './runtime-api-probe.js';

/**
 * What a dropped connection lost of an app run's `runtime_api` events comes back (issue 30 part 3): the run numbers
 * the value events it sends each client (`seq`) and keeps them; `replay_events {after}` sends those after `after`
 * again, with their numbers, to that client (also when it left and joined again under the same identity).
 */
describe('app runs: replaying the value events a client missed', () => {
  let test: TestServer;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await test?.close();
  });

  const pushPrompt = (runId: string, value: string) =>
    test.client.appRuns.pushPadValue(runId, { node: 'system_prompt', pad: 'content', value: { type: 'string', value } });

  it('numbers each value event per client, replays those after `after` with the same numbers, also to a client that rejoined', async () => {
    const examples = await test.client.apps.examples();
    const typed = examples.find((example) => example.id === 'app_example_typed_chat')!;
    const run = await test.client.appRuns.create({ app: typed.id });
    const transport = test.server.services.media.transport;
    const human = await HumanParticipant.join(transport, run.app_run.id, 'human-replay');
    const probe = new RuntimeApiProbe(human.connection);
    await eventually(() => expect(human.connection.participants().map((participant) => participant.identity)).toContain('agent'), 10_000);
    await probe.request({ type: 'subscribe', node_id: 'system_prompt', pad_id: 'content' });
    await pushPrompt(run.app_run.id, 'one');
    await pushPrompt(run.app_run.id, 'two');
    const prompts = () => probe.values('system_prompt', 'content').map((value) => (value as { value: string }).value);
    await eventually(() => expect(prompts().slice(1)).toEqual(['one', 'two']), 10_000);
    const numbered = () => probe.seqs.filter((seq) => seq !== undefined);
    expect(numbered()).toEqual([1, 2, 3]);

    expect(await probe.request({ type: 'replay_events', after: 1 })).toEqual({ type: 'replay_events' });
    await eventually(() => expect(numbered()).toEqual([1, 2, 3, 2, 3]));
    expect(prompts().slice(-2)).toEqual(['one', 'two']);

    // Gone and back as a new participant with the same identity: its numbers go on, what it missed is there.
    await human.leave();
    await pushPrompt(run.app_run.id, 'while away');
    const again = await HumanParticipant.join(transport, run.app_run.id, 'human-replay');
    const rejoined = new RuntimeApiProbe(again.connection);
    await eventually(() => expect(again.connection.participants().map((participant) => participant.identity)).toContain('agent'), 10_000);
    await rejoined.request({ type: 'replay_events', after: 2 });
    await eventually(() => expect(rejoined.seqs).toEqual([3]));
    await rejoined.request({ type: 'subscribe', node_id: 'system_prompt', pad_id: 'content' });
    await eventually(() => expect(rejoined.seqs).toEqual([3, 4]));
    expect(rejoined.values('system_prompt', 'content')).toEqual([
      { type: 'string', value: 'two' },
      { type: 'string', value: 'while away' },
    ]);
    // A negative number is a bad request, answered as one.
    await expect(rejoined.request({ type: 'replay_events', after: -1 } as never)).rejects.toThrow(/invalid request/);
    await again.leave();
  }, 60_000);
});
