import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { parseDataPacket, type SDKSessionTranscription } from '../../../contract/sdk.js';
import { MESSAGE_TOPIC } from '../../../contract/wire.js';
import { UtteranceTranscript } from './utterance-transcript.js';

/** A room connection that keeps the `message` packets, as a client would parse them. */
function recordingConnection() {
  const messages: SDKSessionTranscription[] = [];
  return {
    messages,
    connection: {
      identity: 'agent',
      sendData: async (payload: string | Uint8Array, options?: { topic?: string }) => {
        const packet = parseDataPacket(options?.topic, typeof payload === 'string' ? payload : new TextDecoder().decode(payload));
        if (options?.topic === MESSAGE_TOPIC && packet?.topic === MESSAGE_TOPIC) messages.push(packet.payload);
      },
      sendText: async () => undefined,
      sendTranscription: async () => undefined,
    },
  };
}

describe('UtteranceTranscript', () => {
  it('marks the final line interrupted when the speech was cut, and says nothing of it otherwise', async () => {
    const { connection, messages } = recordingConnection();
    const logger = pino({ level: 'silent' });
    const cut = new UtteranceTranscript(connection, { agent: true }, logger);
    await cut.update('You said: "what is');
    await cut.finish('You said: "what is', new Date(), true);
    const whole = new UtteranceTranscript(connection, { agent: true }, logger);
    await whole.finish('Hello there.');

    expect(messages.map(({ text, final, interrupted }) => ({ text, final, interrupted }))).toEqual([
      { text: 'You said: "what is', final: false, interrupted: undefined },
      { text: 'You said: "what is', final: true, interrupted: true },
      { text: 'Hello there.', final: true, interrupted: undefined },
    ]);
    expect(messages.every((message) => !('interrupted' in message) || message.interrupted === true)).toBe(true);
  });
});
