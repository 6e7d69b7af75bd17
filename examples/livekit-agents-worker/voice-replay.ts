import {
  AudioFrame,
  AudioSource,
  AudioStream,
  LocalAudioTrack,
  RoomEvent,
  TrackKind,
  TrackPublishOptions,
  TrackSource,
  type RemoteParticipant,
  type RemoteTrack,
  type Room,
} from '@livekit/rtc-node';

const SAMPLE_RATE = 48_000;
/** The human's voice kept for a replay: the last 10 s. */
const KEPT_SAMPLES = SAMPLE_RATE * 10;

/**
 * The echo agent's voice: it keeps the last 10 s of each human's microphone and, asked for a replay, plays them back on
 * its own track (`agent_voice`, published at the first replay). Written against `@livekit/rtc-node` only.
 *
 * @example
 * const replay = new VoiceReplay(room);
 * const ms = await replay.play('human-1'); // what human-1 said, played back
 */
export class VoiceReplay {
  private readonly heard = new Map<string, Int16Array[]>();
  private source: AudioSource | undefined;

  constructor(private readonly room: Room) {
    room.on(RoomEvent.TrackSubscribed, (track: RemoteTrack, _publication: unknown, participant: RemoteParticipant) => {
      if (track.kind === TrackKind.KIND_AUDIO) void this.keep(track, participant.identity);
    });
  }

  /** Plays back what `identity` said last; resolves with its length in ms once it was played. */
  async play(identity: string): Promise<number> {
    const chunks = this.heard.get(identity) ?? [];
    this.heard.set(identity, []);
    const source = await this.output();
    let samples = 0;
    for (const chunk of chunks) {
      await source.captureFrame(new AudioFrame(chunk, SAMPLE_RATE, 1, chunk.length));
      samples += chunk.length;
    }
    await source.waitForPlayout();
    return (samples / SAMPLE_RATE) * 1000;
  }

  private async keep(track: RemoteTrack, identity: string): Promise<void> {
    this.heard.set(identity, []);
    const reader = new AudioStream(track, { sampleRate: SAMPLE_RATE, numChannels: 1 }).getReader();
    for (;;) {
      const { value: frame, done } = await reader.read();
      if (done) return;
      const kept = this.heard.get(identity)!;
      kept.push(Int16Array.from(frame.data));
      let total = kept.reduce((sum, chunk) => sum + chunk.length, 0);
      while (total > KEPT_SAMPLES) total -= kept.shift()!.length;
    }
  }

  private async output(): Promise<AudioSource> {
    if (this.source) return this.source;
    this.source = new AudioSource(SAMPLE_RATE, 1, 1000);
    const track = LocalAudioTrack.createAudioTrack('agent_voice', this.source);
    await this.room.localParticipant!.publishTrack(track, new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }));
    return this.source;
  }
}
