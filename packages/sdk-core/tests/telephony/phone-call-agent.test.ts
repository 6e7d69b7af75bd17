import { ParticipantInfo_Kind } from '@livekit/protocol';
import { describe, expect, it } from 'vitest';
import { AGENT_IDENTITY, TRANSCRIPTION_STREAM_TOPIC } from '../../src/contract/wire.js';
import { resampleHighQuality } from '../../src/server/engines/speech/codecs/resample.js';
import { AUDIBLE_RMS, fliteSpeech, rms } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { pocketsphinxAvailable, transcribe } from '../speech/speech-test-support.js';
import { Baresip } from './support/baresip.js';
import { usePhoneServer } from './support/phone-server.js';
import { requireBaresip } from './support/sip-tools.js';

const ready = requireBaresip() && pocketsphinxAvailable();
const GREETING = 'Hello, thank you for calling.';
const QUESTION = 'what is the weather like today';
const CALLER = '+15550100';
const NUMBER = '+15550000';

/**
 * A phone call as users make one, through the platform's own parts: a trunk and a dispatch rule made with
 * `livekit-server-sdk`'s SipClient, the SIP endpoint on `sip.port`, the built-in agent answering (offline models). The
 * phone is Debian's baresip: it hears the greeting, asks a question (Flite speech), hears the answer, hangs up, and
 * the session ends with the caller's conversational seconds recorded.
 */
describe.skipIf(!ready)('a phone call answered by the built-in agent', () => {
  const phones = usePhoneServer();

  it('greets the caller, answers their question, and ends the session when they hang up', async () => {
    const { test, sip } = phones;
    const telephony = test.server.services.telephony!;
    expect(telephony.port).toBeGreaterThan(0);
    const trunk = await sip.createSipInboundTrunk('phones', [NUMBER]);
    const realtime = { general: {}, input: {}, output: { answer_message: GREETING }, generative: { llm: 'builtin-offline' } };
    await sip.createSipDispatchRule(
      { type: 'individual', roomPrefix: 'call' },
      { trunkIds: [trunk.sipTrunkId], metadata: JSON.stringify({ palaver: { realtime } }) },
    );

    // The caller's microphone: silence while the greeting plays, the question, then silence.
    const question = await fliteSpeech(test.server.services.speech, QUESTION);
    const narrow = await resampleHighQuality(question.pcm, question.sampleRate, 8000);
    const microphone = new Int16Array(8000 * 40);
    microphone.set(narrow, 8000 * 6);
    const phone = await Baresip.start({ microphone });
    try {
      phone.command('dial', `sip:${NUMBER}@127.0.0.1:${telephony.port}`);
      await phone.waitForEvent('CALL_ESTABLISHED');
      const room = await eventually(() => {
        const found = test.server.services.media
          .endpoint!.rooms.list()
          .find((candidate) => candidate.list().some((member) => member.state.info().kind === ParticipantInfo_Kind.SIP));
        if (!found) throw new Error('no call room yet');
        return found;
      });
      const caller = room
        .list()
        .find((member) => member.state.info().kind === ParticipantInfo_Kind.SIP)!
        .state.info();
      expect(caller.attributes).toMatchObject({ 'sip.phoneNumber': CALLER, 'sip.trunkPhoneNumber': NUMBER, 'sip.trunkID': trunk.sipTrunkId });
      const sessionId = room.name;
      // Watch the agent's words (its final transcriptions) as a LiveKit client would.
      const watcher = await test.server.services.media.transport.join({ room: sessionId, identity: 'watcher', hidden: true });
      const said: string[] = [];
      watcher.onTextStream(TRANSCRIPTION_STREAM_TOPIC, (stream) => {
        if (stream.from === AGENT_IDENTITY && stream.attributes['lk.transcription_final'] === 'true') void stream.readAll().then((text) => said.push(text));
      });
      await eventually(() => expect(said.some((text) => text.startsWith('You said'))).toBe(true), 60_000, 200);
      // Let the answer play out to the phone, then hang up.
      await eventually(
        () => expect(watcher.participants().find((participant) => participant.identity === AGENT_IDENTITY)?.attributes['lk.agent.state']).toBe('listening'),
        30_000,
      );
      await watcher.leave();
      phone.command('hangup');
      await phone.waitForEvent('CALL_CLOSED');
      await eventually(async () => expect((await test.client.realtime.retrieve(sessionId)).state).toBe('ended'), 20_000);
    } finally {
      await phone.stop();
    }
    const heard = phone.heard();
    const words = (await transcribe(test.server.services.speech, await resampleHighQuality(heard.pcm, heard.sampleRate, 16_000), 16_000)).toLowerCase();
    // The greeting reached the phone before the caller spoke (6 s in), and the answer after: the offline model's words.
    expect(rms(heard.pcm.subarray(0, heard.sampleRate * 6))).toBeGreaterThan(AUDIBLE_RMS);
    expect(words).toMatch(/repeat what i hear/);
    const usage = await test.server.services.store.db
      .selectFrom('usage_records')
      .select(['value'])
      .where('human', '=', CALLER)
      .where('type', '=', 'conversational_seconds')
      .execute();
    expect(usage).toHaveLength(1);
    expect(Number(usage[0]!.value)).toBeGreaterThan(5);
  }, 180_000);
});
