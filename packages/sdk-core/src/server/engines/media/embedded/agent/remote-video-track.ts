import { TrackSource, VideoQuality } from '@livekit/protocol';
import type { RemoteVideoTrack, RoomParticipant, VideoFramesOptions, VideoTrackSource } from '../../agent-transport.js';
import { FfmpegVideoDecoder, type EncodedVideoCodec } from '../../video/ffmpeg-video-decoder.js';
import type { VideoFrame } from '../../video/video-frame.js';
import { AsyncQueue } from '../../../../kernel/async-queue.js';
import type { PublishedVideoTrack } from '../published-video-track.js';
import { VideoForwarder } from '../video-forwarder.js';
import { RtpVideoFrames } from './rtp-video-frames.js';
import type { VideoLayerSettings } from '../video-layers.js';

/** Decoded pictures kept for a reader that falls behind (the oldest go first). */
const BUFFERED_FRAMES = 3;

/** The layer the agent receives unless told otherwise: the lowest (a vision model needs no more). */
export const AGENT_VIDEO_SETTINGS: VideoLayerSettings = Object.freeze({ disabled: false, quality: VideoQuality.LOW, width: 0, height: 0 });

function codecOf(mimeType: string): EncodedVideoCodec | undefined {
  const codec = mimeType.toLowerCase();
  if (codec === 'video/vp8') return 'vp8';
  if (codec === 'video/h264') return 'h264';
  return undefined;
}

/**
 * A camera or screen share as the in-process agent receives it: while someone reads {@link frames}, a
 * {@link VideoForwarder} (the same layer choice a client subscriber gets; the lowest layer by default) hands its RTP to
 * {@link RtpVideoFrames}, and the pictures to a supervised ffmpeg ({@link FfmpegVideoDecoder}) that returns RGBA.
 * Nobody reading: nothing is decoded.
 *
 * @example
 * const remote = new EmbeddedRemoteVideo(publishedTrack, participant);
 * for await (const frame of remote.frames({ maxFps: 1 })) look(frame);
 */
export class EmbeddedRemoteVideo implements RemoteVideoTrack {
  readonly trackSid: string;
  readonly name: string;
  readonly source: VideoTrackSource;
  private readonly readers = new Set<() => void>();
  private endedFlag = false;

  constructor(
    private readonly track: PublishedVideoTrack,
    readonly participant: RoomParticipant,
    private readonly settings: VideoLayerSettings = AGENT_VIDEO_SETTINGS,
    private readonly onError: (message: string) => void = () => undefined,
  ) {
    this.trackSid = track.sid;
    this.name = track.info.name;
    this.source = track.info.source === TrackSource.SCREEN_SHARE ? 'screen_share' : 'camera';
    track.onEnded(() => this.end());
  }

  get ended(): boolean {
    return this.endedFlag;
  }

  frames(options: VideoFramesOptions = {}): AsyncIterable<VideoFrame> {
    return { [Symbol.asyncIterator]: () => this.read(options)[Symbol.asyncIterator]() };
  }

  end(): void {
    this.endedFlag = true;
    for (const stop of [...this.readers]) stop();
  }

  private async *read(options: VideoFramesOptions): AsyncGenerator<VideoFrame> {
    if (this.endedFlag) return;
    const queue = new AsyncQueue<VideoFrame>(BUFFERED_FRAMES);
    const stop = this.decode(options, queue);
    this.readers.add(stop);
    try {
      yield* queue;
    } finally {
      this.readers.delete(stop);
      stop();
    }
  }

  /** Starts receiving and decoding into the queue; returns what stops it. */
  private decode(options: VideoFramesOptions, queue: AsyncQueue<VideoFrame>): () => void {
    const track = this.track;
    let forwarder: VideoForwarder | undefined;
    const requestKeyFrame = (): void => forwarder?.requestKeyFrame();
    let decoder: FfmpegVideoDecoder | undefined;
    let frames: RtpVideoFrames | undefined;
    const ensureDecoder = (): RtpVideoFrames | undefined => {
      if (frames) return frames;
      const codec = codecOf(track.mimeType);
      if (!codec) return undefined;
      decoder = new FfmpegVideoDecoder({
        codec,
        ...(options.maxFps !== undefined ? { maxFps: options.maxFps } : {}),
        onFrame: (frame) => queue.push(frame),
        onNeedKeyFrame: requestKeyFrame,
        onFailed: (message) => {
          this.onError(message);
          queue.end();
        },
      });
      const current = decoder;
      frames = new RtpVideoFrames(codec, (frame) => current.push(frame), requestKeyFrame);
      return frames;
    };
    forwarder = new VideoForwarder(track, {
      send: (packet) => ensureDecoder()?.push(packet),
      switched: () => frames?.restart(),
    });
    forwarder.update(this.settings);
    const unsubscribe = track.subscribe((packet, rid) => forwarder?.handle(packet, rid));
    return () => {
      unsubscribe();
      // No longer keeps a layer of the publisher's on (dynacast).
      forwarder?.close();
      forwarder = undefined;
      decoder?.close();
      queue.end();
    };
  }
}
