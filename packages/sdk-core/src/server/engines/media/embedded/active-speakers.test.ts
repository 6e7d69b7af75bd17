import { randomUUID } from 'node:crypto';
import { AudioFrame, AudioSource, LocalAudioTrack, Room, RoomEvent, TrackPublishOptions, TrackSource, type Participant } from '@livekit/rtc-node';
import { EgressClient, IngressClient } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../../tests/support/test-server.js';
import { sineTone } from '../../../../testing/tone-analysis.js';
import { eventually, playTone } from '../../../../testing/media-test-support.js';
import { DEVELOPMENT_API_SECRET } from '../media-service.js';
import { ActiveSpeakers } from './active-speakers.js';
import { AudioLevelMeter, dBovOfPcm, LIVEKIT_AUDIO_LEVELS } from './audio-level.js';
import type { RoomMember } from './room-member.js';
import { ParticipantState } from './participant-state.js';
import { PublishedAudioTrack } from './published-audio-track.js';

describe('audio levels as LiveKit measures them', () => {
  it('reads PCM in -dBov: full scale 0, a 0.4 sine about 11, silence 127', () => {
    expect(dBovOfPcm(new Int16Array(960).fill(32_767))).toBe(0);
    expect(dBovOfPcm(sineTone(440, 48_000, 20, 0.4))).toBe(11);
    expect(dBovOfPcm(new Int16Array(960))).toBe(127);
  });

  it('a meter is active after an interval that is mostly speech, silent at once after a quiet one, and 0 once packets stop', () => {
    const meter = new AudioLevelMeter();
    let now = 0;
    const feed = (dBov: number, packets: number) => {
      for (let packet = 0; packet < packets; packet++) meter.observe(dBov, 20, (now += 20));
    };
    feed(20, 20);
    const speaking = meter.level(now);
    // Smoothed over two intervals: half-way to 10^(-20/20) = 0.1 after the first.
    expect(speaking).toBeCloseTo(0.05, 5);
    feed(20, 20);
    expect(meter.level(now)).toBeGreaterThan(speaking);
    feed(90, 20);
    expect(meter.level(now)).toBe(0);
    feed(20, 20);
    expect(meter.level(now)).toBeGreaterThan(0);
    expect(meter.level(now + 3 * LIVEKIT_AUDIO_LEVELS.observeMs)).toBe(0);
  });
});

describe('ActiveSpeakers: only the changes, loudest first', () => {
  function member(identity: string): { member: RoomMember; track: PublishedAudioTrack } {
    const state = new ParticipantState({ identity });
    const track = new PublishedAudioTrack(state);
    state.tracks.set(track.sid, track);
    return { member: { state } as RoomMember, track };
  }
  const speak = (track: PublishedAudioTrack, dBov: number, from: number) => {
    for (let at = from; at < from + 400; at += 20) track.audioLevel.observe(dBov, 20, at);
  };

  it('announces new speakers and level changes, nothing when nothing changed, and the speakers who stopped as inactive', () => {
    const speakers = new ActiveSpeakers();
    const alice = member('alice');
    const bob = member('bob');
    expect(speakers.look([alice.member, bob.member], 0)).toEqual([]);
    speak(alice.track, 30, 0);
    speak(bob.track, 10, 0);
    const first = speakers.look([alice.member, bob.member], 400);
    expect(first.map((speaker) => [speaker.sid, speaker.active])).toEqual([
      [bob.member.state.sid, true],
      [alice.member.state.sid, true],
    ]);
    expect(first[0]!.level).toBeGreaterThan(first[1]!.level);
    expect(speakers.look([alice.member, bob.member], 400)).toEqual([]);
    speak(alice.track, 90, 400);
    speak(bob.track, 10, 400);
    const second = speakers.look([alice.member, bob.member], 800);
    // Bob's level moved with the smoothing; Alice stopped.
    expect(second.map((speaker) => [speaker.sid, speaker.active, speaker.level])).toEqual([
      [bob.member.state.sid, true, second[0]!.level],
      [alice.member.state.sid, false, 0],
    ]);
    bob.track.info.muted = true;
    expect(speakers.look([alice.member, bob.member], 800).map((speaker) => [speaker.sid, speaker.active])).toEqual([[bob.member.state.sid, false]]);
  });
});

/** Feeds a tone into an rtc-node audio source until aborted. */
async function feedTone(source: AudioSource, signal: AbortSignal): Promise<void> {
  const tone = sineTone(440, 48_000, 1000, 0.4);
  for (let index = 0; !signal.aborted; index = (index + 1) % 100) {
    await source.captureFrame(new AudioFrame(tone.slice(index * 480, index * 480 + 480), 48_000, 1, 480));
  }
}

describe('embedded endpoint: SpeakersChanged and the services it does not serve', () => {
  let test: TestServer;
  const clients: Room[] = [];

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    for (const client of clients) await client.disconnect().catch(() => undefined);
    await test?.close();
  });

  async function join(room: string, identity: string): Promise<Room> {
    const client = new Room();
    clients.push(client);
    const token = await test.server.services.media.createJoinToken({ room, identity, name: identity });
    await client.connect(test.server.services.media.clientUrl(), token, { autoSubscribe: true, dynacast: false });
    return client;
  }

  /** The identities each ActiveSpeakersChanged named, in order. */
  function speakerLog(client: Room): string[][] {
    const log: string[][] = [];
    client.on(RoomEvent.ActiveSpeakersChanged, (speakers: Participant[]) => log.push(speakers.map((speaker) => speaker.identity)));
    return log;
  }

  it("a client's microphone (RTP audio-level extension) makes it an active speaker for the others, then not when it stops", async () => {
    const room = `room_${randomUUID().slice(0, 8)}`;
    const talker = await join(room, 'talker');
    const listener = await join(room, 'listener');
    const heard = speakerLog(listener);
    const source = new AudioSource(48_000, 1);
    await talker.localParticipant!.publishTrack(
      LocalAudioTrack.createAudioTrack('microphone', source),
      new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }),
    );
    const talking = new AbortController();
    const feeding = feedTone(source, talking.signal);
    await eventually(() => expect(heard.some((speakers) => speakers.includes('talker'))).toBe(true), 15_000);
    talking.abort();
    await feeding;
    await eventually(() => expect(heard.at(-1)).toEqual([]), 15_000);
    await source.close();
  });

  it("the agent's voice (in process, levels from its PCM) makes the agent an active speaker", async () => {
    const room = `room_${randomUUID().slice(0, 8)}`;
    const transport = test.server.services.media.transport;
    await transport.ensureRoom({ room });
    const agent = await transport.join({ room });
    const human = await join(room, 'human');
    const heard = speakerLog(human);
    const output = await agent.publishAudio({ sampleRate: 48_000 });
    const started = performance.now();
    const speaking = playTone(output, 1000, 2_000);
    await eventually(() => expect(heard.some((speakers) => speakers.includes('agent'))).toBe(true), 15_000);
    console.log(`the agent was reported speaking ${Math.round(performance.now() - started)} ms after its voice started (one or two 400 ms looks)`);
    await speaking;
    await output.drained();
    await eventually(() => expect(heard.at(-1)).toEqual([]), 15_000);
    await agent.leave();
  });

  it("answers Egress and Ingress calls with Twirp's bad_route (404 {code, msg}), which LiveKit's SDK reports by name", async () => {
    const url = test.server.services.media.clientUrl().replace(/^ws/, 'http');
    const { apiKey } = test.server.services.media;
    await expect(new EgressClient(url, apiKey, DEVELOPMENT_API_SECRET).listEgress()).rejects.toThrow(/livekit\.Egress is not served/);
    await expect(new IngressClient(url, apiKey, DEVELOPMENT_API_SECRET).listIngress()).rejects.toThrow(/livekit\.Ingress is not served/);
    const answer = await fetch(`${url}/twirp/livekit.Egress/ListEgress`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ code: 'bad_route', msg: expect.stringMatching(/^livekit\.Egress is not served/) as unknown });
    const get = await fetch(`${url}/twirp/livekit.RoomService/ListRooms`);
    expect([get.status, ((await get.json()) as { code: string }).code]).toEqual([404, 'bad_route']);
  });
});
