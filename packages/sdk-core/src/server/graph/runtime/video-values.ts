import type { VideoClipSummary } from '../../../contract/graph/pad-values.js';
import type { VideoFrame } from '../../engines/media/index.js';
import { AudioClip } from './stream-values.js';

/** One frame on a `video` pad: never leaves the runtime (the client mapping skips `runtime:` values). */
export interface VideoFramePacket {
  readonly kind: 'runtime:video';
  readonly frame: VideoFrame;
  /** Identity of the participant it came from (Publish), or the producing node. */
  readonly origin: string;
}

export function isVideoPacket(value: unknown): value is VideoFramePacket {
  return (value as { kind?: unknown } | null)?.kind === 'runtime:video';
}

/** Frames cut out of a video stream (`video_clip` pads); clients see only how many over how long. */
export class VideoClip {
  readonly type = 'video_clip' as const;
  constructor(
    readonly frames: readonly VideoFrame[],
    /** Identity of the participant the frames came from, when one did. */
    readonly origin?: string,
  ) {}

  /** Seconds from the first frame to the last (0 for fewer than two). */
  get duration(): number {
    if (this.frames.length < 2) return 0;
    return Math.max(0, (this.frames.at(-1)!.timestampMs - this.frames[0]!.timestampMs) / 1000);
  }

  toJSON(): VideoClipSummary {
    return { type: 'video_clip', frame_count: this.frames.length, duration: this.duration };
  }
}

/** A video clip and an audio clip of the same stretch (`av_clip` pads). */
export class AVClip {
  readonly type = 'av_clip' as const;
  constructor(
    readonly video: VideoClip,
    readonly audio: AudioClip,
  ) {}

  toJSON(): { type: 'av_clip'; video: VideoClipSummary; audio: ReturnType<AudioClip['toJSON']> } {
    return { type: 'av_clip', video: this.video.toJSON(), audio: this.audio.toJSON() };
  }
}

/** An empty audio clip (an AV clip whose audio input is not linked). */
export function emptyAudioClip(): AudioClip {
  return new AudioClip(new Int16Array(0), 48_000, null);
}
