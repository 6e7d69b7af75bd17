import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../tests/support/test-server.js';
import type { SDKSessionTranscription } from '../../contract/sdk.js';
import { MESSAGE_TOPIC, TRANSCRIPT_RESUME_TOPIC } from '../../contract/wire.js';
import { eventually } from '../../testing/media-test-support.js';
import type { AgentRoomConnection, ReceivedData } from '../engines/media/index.js';
import { replayTranscripts } from './transcript-replay.js';

let test: TestServer;
beforeAll(async () => {
  test = await startTestServer();
});
afterAll(async () => {
  await test.close();
});

const line = (id: string, text: string, final: boolean): string =>
  JSON.stringify({ id, agent: true, final, created_at: new Date().toISOString(), speaking_ended_at: null, text } satisfies SDKSessionTranscription);

async function roomWith(...identities: string[]): Promise<AgentRoomConnection[]> {
  const room = `replay_${randomUUID().slice(0, 8)}`;
  const transport = test.server.services.media.transport;
  await transport.ensureRoom({ room });
  return Promise.all(identities.map((identity) => transport.join({ room, identity })));
}

const messages = (received: ReceivedData[]) =>
  received.filter((data) => data.topic === MESSAGE_TOPIC).map((data) => JSON.parse(new TextDecoder().decode(data.payload)) as SDKSessionTranscription);

describe('replayTranscripts over the embedded media endpoint', () => {
  it('answers the human’s transcript_resume with the latest version of each line sent since, oldest first, to them only', async () => {
    const [agent, human, other] = await roomWith('agent', 'human_1', 'other_1');
    const stop = replayTranscripts(agent!, 'human_1');
    await agent!.sendData(line('a', 'first', true), { topic: MESSAGE_TOPIC });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const between = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await agent!.sendData(line('b', 'grow', false), { topic: MESSAGE_TOPIC });
    await agent!.sendData(line('c', 'next', true), { topic: MESSAGE_TOPIC });
    await agent!.sendData(line('b', 'grown up', true), { topic: MESSAGE_TOPIC });
    const heard: ReceivedData[] = [];
    const overheard: ReceivedData[] = [];
    human!.on('data', (data) => heard.push(data));
    other!.on('data', (data) => overheard.push(data));

    await human!.sendData(JSON.stringify({ after: between }), { topic: TRANSCRIPT_RESUME_TOPIC, destinationIdentities: ['agent'] });
    await eventually(() =>
      expect(messages(heard).map((entry) => [entry.id, entry.text, entry.final])).toEqual([
        ['c', 'next', true],
        ['b', 'grown up', true],
      ]),
    );
    // All of it on null; nobody else gets the replay, and someone else's request is not answered.
    await human!.sendData(JSON.stringify({ after: null }), { topic: TRANSCRIPT_RESUME_TOPIC, destinationIdentities: ['agent'] });
    await eventually(() =>
      expect(
        messages(heard)
          .slice(2)
          .map((entry) => entry.id),
      ).toEqual(['a', 'c', 'b']),
    );
    await other!.sendData(JSON.stringify({ after: null }), { topic: TRANSCRIPT_RESUME_TOPIC, destinationIdentities: ['agent'] });
    await human!.sendData(JSON.stringify({ after: 'not a time' }), { topic: TRANSCRIPT_RESUME_TOPIC, destinationIdentities: ['agent'] });
    await human!.sendData(JSON.stringify({ after: null }), { topic: TRANSCRIPT_RESUME_TOPIC, destinationIdentities: ['agent'] });
    await eventually(() => expect(messages(heard)).toHaveLength(8));
    expect(messages(overheard)).toEqual([]);
    stop();
    for (const connection of [agent, human, other]) await connection!.leave();
  });
});
