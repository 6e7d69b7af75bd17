import {
  LocalVideoTrack,
  TrackPublishOptions,
  TrackSource,
  VideoBufferType,
  VideoFrame as LivekitVideoFrame,
  VideoSource,
  VideoStream,
  type LocalParticipant,
  type RemoteTrack,
} from '@livekit/rtc-node';
import type { PublishVideoOptions, RemoteVideoTrack, RoomParticipant, VideoFramesOptions, VideoOutput, VideoTrackSource } from '../agent-transport.js';
import type { VideoFrame } from '../video/video-frame.js';

/**
 * A camera or screen share in a LiveKit deployment: rtc-node's {@link VideoStream} decodes natively; each picture the
 * reader takes is converted to RGBA (pictures over `maxFps` are skipped before the conversion).
 *
 * @example
 * for await (const frame of new LivekitRemoteVideo(sid, name, 'camera', participant, track).frames({ maxFps: 1 })) look(frame);
 */
export class LivekitRemoteVideo implements RemoteVideoTrack {
  constructor(
    readonly trackSid: string,
    readonly name: string,
    readonly source: VideoTrackSource,
    readonly participant: RoomParticipant,
    private readonly track: RemoteTrack,
  ) {}

  async *frames(options: VideoFramesOptions = {}): AsyncIterable<VideoFrame> {
    const stream = new VideoStream(this.track);
    const reader = stream.getReader();
    const intervalMs = options.maxFps && options.maxFps > 0 ? 1000 / options.maxFps : 0;
    let lastMs = Number.NEGATIVE_INFINITY;
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done || !value) return;
        const nowMs = Date.now();
        if (nowMs - lastMs < intervalMs) continue;
        lastMs = nowMs;
        const rgba = value.frame.type === VideoBufferType.RGBA ? value.frame : value.frame.convert(VideoBufferType.RGBA);
        yield { width: rgba.width, height: rgba.height, rgba: new Uint8Array(rgba.data), timestampMs: Number(value.timestampUs / 1000n) };
      }
    } finally {
      reader.releaseLock();
      await stream.cancel().catch(() => undefined);
    }
  }
}

/** The agent's video track in a LiveKit deployment: RGBA pictures into rtc-node's {@link VideoSource}, which encodes. */
class LivekitVideoOutput implements VideoOutput {
  constructor(
    readonly trackSid: string,
    private readonly source: VideoSource,
    private readonly onClose: () => Promise<void>,
  ) {}

  async write(frame: VideoFrame): Promise<void> {
    this.source.captureFrame(new LivekitVideoFrame(frame.rgba, frame.width, frame.height, VideoBufferType.RGBA), BigInt(Math.round(frame.timestampMs * 1000)));
  }

  async close(): Promise<void> {
    await this.onClose();
    await this.source.close();
  }
}

/** Publishes a video track fed with RGBA pictures (LiveKit's `LocalVideoTrack` over a `VideoSource`). */
export async function publishLivekitVideo(local: LocalParticipant, options: PublishVideoOptions, isLeft: () => boolean): Promise<VideoOutput> {
  const source = new VideoSource(options.width, options.height);
  const track = LocalVideoTrack.createVideoTrack(options.name ?? 'agent_video', source);
  const publication = await local.publishTrack(
    track,
    new TrackPublishOptions({ source: options.source === 'screen_share' ? TrackSource.SOURCE_SCREENSHARE : TrackSource.SOURCE_CAMERA }),
  );
  const sid = publication.sid ?? '';
  return new LivekitVideoOutput(sid, source, async () => {
    if (!isLeft()) await local.unpublishTrack(sid).catch(() => undefined);
  });
}
