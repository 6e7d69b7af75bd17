import { AudioTrackFeature } from '@livekit/protocol';
import type { AudioFrame } from '../../audio/audio-frame.js';
import { OPUS_SAMPLE_RATE, OpusFrameDecoder } from '../../audio/opus-codec.js';
import type { RemoteAudioTrack, RoomParticipant } from '../../agent-transport.js';
import { AsyncQueue } from '../../../../kernel/async-queue.js';
import type { PublishedAudioTrack } from '../published-audio-track.js';

/** About 2 s of 20 ms frames. */
const BUFFERED_FRAMES = 100;

/**
 * A remote participant's microphone as the in-process agent receives it: the room's Opus RTP,
 * decoded to 48 kHz mono PCM frames.
 *
 * @example
 * const remote = new RemotePcmTrack(publishedTrack, participant);
 * for await (const frame of remote.frames()) vad.push(frame.samples);
 */
export class RemotePcmTrack implements RemoteAudioTrack {
  readonly trackSid: string;
  readonly name: string;
  readonly preConnectBuffer: boolean;
  private readonly queue = new AsyncQueue<AudioFrame>(BUFFERED_FRAMES);
  private readonly decoder = new OpusFrameDecoder();
  private readonly unsubscribe: () => void;
  private lastSequence: number | undefined;

  constructor(
    track: PublishedAudioTrack,
    readonly participant: RoomParticipant,
  ) {
    this.trackSid = track.sid;
    this.name = track.info.name;
    this.preConnectBuffer = track.info.audioFeatures.includes(AudioTrackFeature.TF_PRECONNECT_BUFFER);
    this.unsubscribe = track.subscribe((packet) => {
      const sequence = packet.header.sequenceNumber;
      // Drop duplicates and late packets (retransmissions); loopback rarely reorders.
      if (this.lastSequence !== undefined && ((sequence - this.lastSequence) & 0xffff) > 0x8000) return;
      if (sequence === this.lastSequence) return;
      this.lastSequence = sequence;
      this.queue.push({ samples: this.decoder.decode(packet.payload), sampleRate: OPUS_SAMPLE_RATE, channels: 1 });
    });
    track.onEnded(() => this.end());
  }

  get ended(): boolean {
    return this.queue.ended;
  }

  frames(): AsyncIterable<AudioFrame> {
    return this.queue;
  }

  end(): void {
    this.unsubscribe();
    this.queue.end();
  }
}
