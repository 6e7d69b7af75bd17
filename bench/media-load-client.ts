/**
 * Child process of media-connect.bench.ts: N `@livekit/rtc-node` humans, each publishing a 440 Hz
 * microphone tone in real time and consuming the agent's audio, so the server's cost per two-way
 * audio session is measured without a browser competing for the same cores.
 * Input: MEDIA_LOAD_URL and MEDIA_LOAD_TOKENS (JSON array). Prints `ready` once all are connected and
 * `frames <count>` (received agent frames) on SIGTERM.
 */
import { AudioFrame, AudioSource, AudioStream, LocalAudioTrack, Room, RoomEvent, TrackKind, TrackPublishOptions, TrackSource } from '@livekit/rtc-node';
import { sineTone } from '@palaver/sdk-core/testing';

const url = process.env.MEDIA_LOAD_URL!;
const tokens = JSON.parse(process.env.MEDIA_LOAD_TOKENS ?? '[]') as string[];
const tone = sineTone(440, 48_000, 1000, 0.4);
let received = 0;
let stopping = false;
const rooms: Room[] = [];

async function human(token: string): Promise<void> {
  const room = new Room();
  rooms.push(room);
  room.on(RoomEvent.TrackSubscribed, (track) => {
    if (track.kind !== TrackKind.KIND_AUDIO) return;
    void (async () => {
      const reader = new AudioStream(track, { sampleRate: 48_000, numChannels: 1 }).getReader();
      while (!stopping) {
        const { done } = await reader.read();
        if (done) return;
        received += 1;
      }
    })();
  });
  await room.connect(url, token, { autoSubscribe: true, dynacast: false });
  const source = new AudioSource(48_000, 1);
  await room.localParticipant!.publishTrack(
    LocalAudioTrack.createAudioTrack('mic', source),
    new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }),
  );
  void (async () => {
    for (let index = 0; !stopping; index = (index + 1) % 100) {
      await source.captureFrame(new AudioFrame(tone.slice(index * 480, index * 480 + 480), 48_000, 1, 480));
    }
  })();
}

await Promise.all(tokens.map((token) => human(token)));
console.log('ready');
process.on('SIGTERM', () => {
  stopping = true;
  console.log(`frames ${received}`);
  void Promise.all(rooms.map((room) => room.disconnect())).finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 3000).unref();
});
