import {
  OPUS_SAMPLE_RATE,
  OpusFrameDecoder,
  webmOpusPackets,
  type AgentRoomConnection,
  type AudioFrame,
  type IncomingByteStream,
  type RemoteAudioTrack,
} from '../../engines/media/index.js';

/** livekit-client's topic for the microphone recorded before the agent was there. */
export const PRE_CONNECT_AUDIO_TOPIC = 'lk.agent.pre-connect-audio-buffer';
/** How long a track that announced a buffer waits for it (livekit-client closes it once the agent subscribed). */
const WAIT_MS = 3_000;
/** A buffer older than this when its track is listened to is from another time: dropped (LiveKit agents: 1 s). */
const MAX_AGE_MS = 5_000;
/** Largest buffer taken (livekit-client records at most 10 s). */
const MAX_BYTES = 2 * 1024 * 1024;
/** Buffers kept for tracks nobody listened to yet. */
const MAX_BUFFERS = 8;

interface PendingBuffer {
  frames: Promise<AudioFrame[]>;
  endedAt: number;
}

/** PCM16 little-endian (`audio/pcm`, what LiveKit's other SDKs send) or WebM/Opus (livekit-client's MediaRecorder). */
async function decode(stream: IncomingByteStream): Promise<AudioFrame[]> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.byteLength;
    if (size > MAX_BYTES) break;
    chunks.push(chunk);
  }
  const bytes = Uint8Array.from(Buffer.concat(chunks));
  if (/^audio\/(pcm|raw|l16)/i.test(stream.mimeType)) {
    const sampleRate = Number(stream.attributes.sampleRate) || 48_000;
    const channels = Number(stream.attributes.channels) || 1;
    if (channels !== 1) return [];
    const samples = new Int16Array(bytes.buffer, 0, Math.floor(bytes.byteLength / 2));
    const step = Math.round(sampleRate / 50);
    const frames: AudioFrame[] = [];
    for (let start = 0; start < samples.length; start += step) frames.push({ samples: samples.slice(start, start + step), sampleRate, channels: 1 });
    return frames;
  }
  const decoder = new OpusFrameDecoder();
  return webmOpusPackets(bytes).map((packet) => ({ samples: decoder.decode(packet), sampleRate: OPUS_SAMPLE_RATE, channels: 1 }));
}

/**
 * livekit-client's pre-connect audio buffer (`preConnectBuffer`): what the human said between pressing Start and the
 * agent subscribing to their microphone, sent as a byte stream once the agent is in the room. The listener hears it
 * before the live frames of the same track, as LiveKit agents feed it (decision 0105).
 *
 * @example
 * const preConnect = new PreConnectAudio();
 * unsubscribe.push(preConnect.attach(connection));
 * connection.on('audioTrack', (track) => pipeline.listen(preConnect.withBuffer(track)));
 */
export class PreConnectAudio {
  private readonly buffers = new Map<string, PendingBuffer>();
  private readonly waiting = new Map<string, (buffer: PendingBuffer) => void>();

  attach(connection: Pick<AgentRoomConnection, 'onByteStream'>): () => void {
    return connection.onByteStream(PRE_CONNECT_AUDIO_TOPIC, (stream) => {
      const trackId = stream.attributes.trackId;
      if (!trackId) return;
      const buffer: PendingBuffer = { frames: decode(stream).catch(() => []), endedAt: Number.POSITIVE_INFINITY };
      void buffer.frames.then(() => (buffer.endedAt = Date.now()));
      if (this.buffers.size >= MAX_BUFFERS) this.buffers.delete(this.buffers.keys().next().value!);
      this.buffers.set(trackId, buffer);
      this.waiting.get(trackId)?.(buffer);
    });
  }

  /**
   * The connection with every audio track it hands out led by its pre-connect audio: an app run's nodes (Publish, the
   * multi-participant STT) take their tracks from the room connection, so what was said before the run's agent
   * subscribed reaches them as it reaches the built-in agent's listener. Whichever consumer reads a track first gets
   * its buffer.
   */
  connectionWithBuffers(connection: AgentRoomConnection): AgentRoomConnection {
    const on: AgentRoomConnection['on'] = (event, listener) =>
      event === 'audioTrack'
        ? connection.on('audioTrack', (track) => (listener as (track: RemoteAudioTrack) => void)(this.withBuffer(track)))
        : connection.on(event, listener);
    const audioTracks = () => connection.audioTracks().map((track) => this.withBuffer(track));
    return new Proxy(connection, {
      get: (target, key): unknown => {
        if (key === 'on') return on;
        if (key === 'audioTracks') return audioTracks;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  /** The track, its frames led by its pre-connect audio when it has (or announced) some. */
  withBuffer(track: RemoteAudioTrack): RemoteAudioTrack {
    return {
      trackSid: track.trackSid,
      name: track.name,
      participant: track.participant,
      ...(track.preConnectBuffer !== undefined ? { preConnectBuffer: track.preConnectBuffer } : {}),
      frames: () => this.frames(track),
    };
  }

  private async *frames(track: RemoteAudioTrack): AsyncIterable<AudioFrame> {
    for (const frame of await this.take(track)) yield frame;
    yield* track.frames();
  }

  /** The track's buffered frames: waited for when announced, dropped when stale. */
  private async take(track: RemoteAudioTrack): Promise<AudioFrame[]> {
    let buffer = this.buffers.get(track.trackSid);
    if (!buffer && track.preConnectBuffer) {
      buffer = await new Promise<PendingBuffer | undefined>((resolve) => {
        const timer = setTimeout(() => resolve(undefined), WAIT_MS);
        this.waiting.set(track.trackSid, (arrived) => (clearTimeout(timer), resolve(arrived)));
      });
      this.waiting.delete(track.trackSid);
    }
    if (!buffer) return [];
    this.buffers.delete(track.trackSid);
    let timer: NodeJS.Timeout | undefined;
    const frames = await Promise.race([buffer.frames, new Promise<AudioFrame[]>((resolve) => (timer = setTimeout(() => resolve([]), WAIT_MS)))]);
    clearTimeout(timer);
    return Date.now() - buffer.endedAt > MAX_AGE_MS ? [] : frames;
  }
}
