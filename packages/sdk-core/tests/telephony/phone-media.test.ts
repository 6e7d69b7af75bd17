import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRoomConnection, ReceivedDtmf } from '../../src/server/engines/media/agent-transport.js';
import { LivekitAgentTransport } from '../../src/server/engines/media/livekit/livekit-agent-transport.js';
import { DEVELOPMENT_API_SECRET } from '../../src/server/engines/media/media-service.js';
import { SipEndpoint, speechPrompts } from '../../src/server/engines/telephony/index.js';
import { createLogger } from '../../src/server/kernel/logger.js';
import { startTestEndpoint } from './support/test-endpoint.js';
import { analyseFrames, eventually, nextAudioTrack, playTone } from '../../src/testing/media-test-support.js';
import { dominantFrequency, sineTone } from '../../src/testing/tone-analysis.js';
import { AUDIBLE_RMS, rms } from '../../src/testing/agent-harness.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { Baresip } from './support/baresip.js';
import { requireBaresip } from './support/sip-tools.js';
import { OPEN_NUMBER, PIN, PIN_NUMBER, testDirectory } from './support/test-directory.js';

const hasBaresip = requireBaresip();
const CALLER_TONE_HZ = 440;
const ROOM_TONE_HZ = 1000;
const CANDIDATES = [CALLER_TONE_HZ, ROOM_TONE_HZ, 700, 1500];

/**
 * Media of a phone call with Debian's baresip as the phone: its microphone (a tone) reaches the room, the room's audio
 * (another tone) reaches the phone, its key presses reach the agent and a LiveKit client (rtc-node) as SipDTMF, and
 * hanging up removes the participant.
 */
describe.skipIf(!hasBaresip)('phone call media with baresip', () => {
  let test: TestServer;
  let endpoint: SipEndpoint;
  let watcher: LivekitAgentTransport;
  const directory = testDirectory();
  const agents: AgentRoomConnection[] = [];
  const watchers: AgentRoomConnection[] = [];

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
    const media = test.server.services.media;
    watcher = new LivekitAgentTransport({ url: media.clientUrl(), apiKey: media.apiKey, apiSecret: DEVELOPMENT_API_SECRET, logger: createLogger('silent') });
    // The room's other side: an agent that plays a tone (what answers the call), and a LiveKit client watching.
    const dispatch = directory.dispatch.bind(directory);
    directory.dispatch = async (call, trunk) => {
      const route = (await dispatch(call, trunk))!;
      await media.transport.ensureRoom({ room: route.roomName });
      const agent = await media.transport.join({ room: route.roomName });
      agents.push(agent);
      void playTone(await agent.publishAudio(), ROOM_TONE_HZ, 15_000).catch(() => undefined);
      watchers.push(await watcher.join({ room: route.roomName, identity: 'watcher', hidden: false }));
      return route;
    };
    endpoint = await startTestEndpoint({
      directory,
      transport: media.transport,
      prompts: speechPrompts(test.server.services.speech.tts),
    });
  });

  afterAll(async () => {
    await endpoint?.close();
    await watcher?.close();
    await test?.close();
  });

  it.each([
    ['PCMU', ['g711'], 8000],
    ['opus', ['opus', 'g711'], 48_000],
  ])(
    'carries audio both ways (%s), DTMF to the agent and the data topic, and ends when the phone hangs up',
    async (codec, modules, rate) => {
      agents.length = 0;
      watchers.length = 0;
      const phone = await Baresip.start({ microphone: sineTone(CALLER_TONE_HZ, rate, 20_000, 0.4), sampleRate: rate, codecs: modules });
      try {
        phone.command('dial', `sip:${OPEN_NUMBER}@127.0.0.1:${endpoint.port}`);
        await phone.waitForEvent('CALL_ESTABLISHED');
        expect(phone.log).toContain(`Set audio decoder: ${codec}`);
        const agent = await eventually(() => agents[0] ?? Promise.reject(new Error('no agent yet')));
        const watching = await eventually(() => watchers[0] ?? Promise.reject(new Error('no watcher yet')));
        const keys: ReceivedDtmf[] = [];
        const watched: ReceivedDtmf[] = [];
        agent.on('dtmf', (dtmf) => keys.push(dtmf));
        watching.on('dtmf', (dtmf) => watched.push(dtmf));

        const caller = agent.participants().find((participant) => participant.kind === 'sip');
        expect(caller).toMatchObject({ identity: 'sip_+15550100', kind: 'sip' });
        const track = await nextAudioTrack(agent, 'sip_+15550100');
        const heardInRoom = await analyseFrames(track.frames(), CANDIDATES, 500, 1500);
        expect(heardInRoom.frequency).toBe(CALLER_TONE_HZ);

        phone.command('sndcode', '5');
        await eventually(() => expect(keys.map((key) => key.digit)).toEqual(['5']));
        phone.command('sndcode', '#');
        await eventually(() => expect(keys).toEqual([expect.objectContaining({ code: 5, digit: '5' }), { code: 11, digit: '#', from: 'sip_+15550100' }]));
        await eventually(() => expect(watched.map((key) => key.digit)).toEqual(['5', '#']));

        phone.command('hangup');
        await phone.waitForEvent('CALL_CLOSED');
        await eventually(() => {
          expect(endpoint.activeCalls).toBe(0);
          expect(agent.participants().some((participant) => participant.kind === 'sip')).toBe(false);
        });
      } finally {
        await phone.stop();
      }
      const { pcm, sampleRate } = phone.heard();
      // The middle of the call (after the first second), as the phone recorded it.
      const middle = pcm.subarray(sampleRate, sampleRate * 3);
      expect(dominantFrequency(middle, sampleRate, CANDIDATES).frequency).toBe(ROOM_TONE_HZ);
    },
    60_000,
  );

  it("a rule's PIN is asked for out loud and keeps the caller out of the room until they key it", async () => {
    agents.length = 0;
    const phone = await Baresip.start({ microphone: sineTone(CALLER_TONE_HZ, 8000, 20_000, 0.4) });
    try {
      phone.command('dial', `sip:${PIN_NUMBER}@127.0.0.1:${endpoint.port}`);
      await phone.waitForEvent('CALL_ESTABLISHED');
      const agent = await eventually(() => agents[0] ?? Promise.reject(new Error('no agent yet')));
      const callerIn = () => agent.participants().some((participant) => participant.kind === 'sip');
      // The prompt plays before anything is keyed (a second of it), with nobody from the room on the line yet.
      const call = await eventually(() => endpoint.calls()[0] ?? Promise.reject(new Error('no call yet')));
      await eventually(() => expect(call.rtp.stats.sent).toBeGreaterThan(50), 20_000);
      for (const digit of '9999') phone.command('sndcode', digit);
      // The wrong PIN is refused (the call stays up, nobody joins); the right one lets the caller in.
      await eventually(() => expect(endpoint.calls()[0]?.rtp.stats.received).toBeGreaterThan(0));
      expect(callerIn()).toBe(false);
      for (const digit of PIN) phone.command('sndcode', digit);
      await eventually(() => expect(callerIn()).toBe(true));
      const track = await nextAudioTrack(agent, 'sip_+15550100');
      expect((await analyseFrames(track.frames(), CANDIDATES, 500, 1000)).frequency).toBe(CALLER_TONE_HZ);
      phone.command('hangup');
      await eventually(() => expect(endpoint.activeCalls).toBe(0));
    } finally {
      await phone.stop();
    }
    // The first thing the phone heard: the spoken prompt, not the room's tone (which only comes after the PIN).
    const { pcm, sampleRate } = phone.heard();
    const block = sampleRate / 5;
    let first: Int16Array | undefined;
    for (let offset = 0; !first && offset + block <= pcm.length; offset += block) {
      const candidate = pcm.subarray(offset, offset + block);
      if (rms(candidate) > AUDIBLE_RMS / 4) first = candidate;
    }
    expect(first, 'the phone heard something').toBeDefined();
    const heardFirst = dominantFrequency(first!, sampleRate, CANDIDATES);
    expect(heardFirst.frequency === ROOM_TONE_HZ && heardFirst.dominance > 10, 'the first audio is the room tone, not a prompt').toBe(false);
  }, 60_000);

  it('hangs up after three wrong PINs, having said so, and the caller never joins', async () => {
    agents.length = 0;
    const phone = await Baresip.start({ microphone: sineTone(CALLER_TONE_HZ, 8000, 30_000, 0.4) });
    try {
      phone.command('dial', `sip:${PIN_NUMBER}@127.0.0.1:${endpoint.port}`);
      await phone.waitForEvent('CALL_ESTABLISHED');
      const agent = await eventually(() => agents[0] ?? Promise.reject(new Error('no agent yet')));
      const call = await eventually(() => endpoint.calls()[0] ?? Promise.reject(new Error('no call yet')));
      await eventually(() => expect(call.rtp.stats.sent).toBeGreaterThan(50), 20_000);
      for (const digit of '000011112222') phone.command('sndcode', digit);
      await eventually(() => expect(call.state).toBe('ended'), 30_000);
      const sentByTheEnd = call.rtp.stats.sent;
      await phone.waitForEvent('CALL_CLOSED', 10_000);
      expect(agent.participants().some((participant) => participant.kind === 'sip')).toBe(false);
      // The goodbye was played before the BYE: more than the first second of prompt went out.
      expect(sentByTheEnd).toBeGreaterThan(100);
      await eventually(() => expect(endpoint.activeCalls).toBe(0));
    } finally {
      await phone.stop();
    }
  }, 60_000);
});
