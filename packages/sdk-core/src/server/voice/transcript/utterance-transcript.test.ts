import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { parseDataPacket, type SDKSessionTranscription } from '../../../contract/sdk.js';
import { MESSAGE_TOPIC } from '../../../contract/wire.js';
import type { LegacyTranscription } from '../../engines/media/index.js';
import { legacyTranscriptionReaders, UtteranceTranscript } from './utterance-transcript.js';

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

  it("sends the human's words as a legacy Transcription naming them and their track, only to the readers named", async () => {
    const legacy: LegacyTranscription[] = [];
    const connection = { ...recordingConnection().connection, sendTranscription: async (packet: LegacyTranscription) => void legacy.push(packet) };
    const logger = pino({ level: 'silent' });
    const browser = { identity: 'human', clientSdk: 'js' };
    const heard = new UtteranceTranscript(
      connection,
      { agent: false, speaker: 'human', trackSid: 'TR_mic', legacyReaders: legacyTranscriptionReaders(browser), createdAt: new Date() },
      logger,
    );
    await heard.update('tell me');
    await heard.finish('tell me about the weather');
    // An rtc-node client (or one whose SDK is unknown) is never sent one: it would panic on a packet naming itself.
    for (const clientSdk of ['node', undefined]) {
      const unknown = { identity: 'other', ...(clientSdk ? { clientSdk } : {}) };
      await new UtteranceTranscript(
        connection,
        { agent: false, speaker: 'other', trackSid: 'TR_x', legacyReaders: legacyTranscriptionReaders(unknown) },
        logger,
      ).finish('hi');
    }
    // Typed words (no track) have no legacy packet.
    await new UtteranceTranscript(connection, { agent: false, speaker: 'human', legacyReaders: ['human'] }, logger).finish('typed');

    expect(
      legacy.map(({ participantIdentity, trackSid, destinationIdentities, segments }) => ({
        participantIdentity,
        trackSid,
        destinationIdentities,
        segments: segments.map((segment) => `${segment.final}|${segment.text}`),
      })),
    ).toEqual([
      { participantIdentity: 'human', trackSid: 'TR_mic', destinationIdentities: ['human'], segments: ['false|tell me'] },
      { participantIdentity: 'human', trackSid: 'TR_mic', destinationIdentities: ['human'], segments: ['true|tell me about the weather'] },
    ]);
  });
});
