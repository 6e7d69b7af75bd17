import type { AgentRoomConnection, AgentTransport, AudioOutput, RemoteAudioTrack } from '../../media/index.js';
import { ROOM_FRAME_SAMPLES } from '../rtp/call-codec.js';

/**
 * What may wait per speaker before the oldest audio is dropped (100 ms): the room's audio and the call's clock run at
 * the same pace, so whatever piles up (a stall, a burst) would otherwise stay as delay for the rest of the call.
 */
const MAX_BUFFERED_SAMPLES = 4800;
/** The caller's audio waiting to go into the room, beyond which new frames are dropped (same reason, other way). */
const MAX_CALLER_QUEUE_MS = 60;
/** A speaker starts playing once this much is buffered (absorbs the room's pacing jitter against the call's clock). */
const PREBUFFER_SAMPLES = ROOM_FRAME_SAMPLES * 2;

export interface CallBridgeOptions {
  transport: AgentTransport;
  room: string;
  identity: string;
  name: string;
  metadata: string;
  attributes: Record<string, string>;
  /** The room removed the participant or closed (the call must end). */
  onGone(reason: string): void;
}

/** One speaker's decoded audio, waiting for the call's 20 ms clock. */
class SpeakerBuffer {
  private chunks: Int16Array[] = [];
  private offset = 0;
  private buffered = 0;
  private playing = false;
  /** Samples dropped to keep the delay bounded. */
  dropped = 0;

  push(samples: Int16Array): void {
    this.chunks.push(samples);
    this.buffered += samples.length;
    while (this.buffered - this.offset > MAX_BUFFERED_SAMPLES && this.chunks.length > 1) {
      const dropped = this.chunks.shift()!;
      this.buffered -= dropped.length;
      this.offset = 0;
      this.dropped += dropped.length;
    }
  }

  /** Adds up to one frame into `mix`; false when nothing was there. */
  mixInto(mix: Int32Array): boolean {
    const available = this.buffered - this.offset;
    if (!this.playing && available < PREBUFFER_SAMPLES) return false;
    if (available === 0) {
      this.playing = false;
      return false;
    }
    this.playing = true;
    let written = 0;
    while (written < mix.length && this.chunks.length > 0) {
      const chunk = this.chunks[0]!;
      const take = Math.min(chunk.length - this.offset, mix.length - written);
      for (let index = 0; index < take; index += 1) mix[written + index]! += chunk[this.offset + index]!;
      written += take;
      this.offset += take;
      if (this.offset === chunk.length) {
        this.chunks.shift();
        this.buffered -= chunk.length;
        this.offset = 0;
      }
    }
    return true;
  }
}

/**
 * A phone call's presence in its room: a participant of kind `sip` that publishes the caller's voice and
 * hears everyone else (the agent), mixed into one 20 ms frame per tick of the call's clock.
 *
 * @example
 * const bridge = await CallBridge.join({ transport, room: 'call-1', identity: 'sip_+15550100', ... });
 * bridge.callerAudio(pcm48k);
 * rtp.sendFrame(bridge.nextFrame());
 */
export class CallBridge {
  private readonly speakers = new Map<string, SpeakerBuffer>();
  private readonly mix = new Int32Array(ROOM_FRAME_SAMPLES);
  private left = false;
  /** Caller frames dropped to keep the delay into the room bounded (a stall at the start of a call, a burst). */
  droppedCallerFrames = 0;

  private constructor(
    readonly connection: AgentRoomConnection,
    private readonly output: AudioOutput,
  ) {}

  static async join(options: CallBridgeOptions): Promise<CallBridge> {
    await options.transport.ensureRoom({ room: options.room });
    const connection = await options.transport.join({
      room: options.room,
      identity: options.identity,
      name: options.name,
      metadata: options.metadata,
      attributes: options.attributes,
      kind: 'sip',
    });
    let output: AudioOutput;
    try {
      output = await connection.publishAudio({ name: 'phone', sampleRate: 48_000 });
    } catch (error) {
      await connection.leave();
      throw error;
    }
    const bridge = new CallBridge(connection, output);
    for (const track of connection.audioTracks()) bridge.listen(track);
    connection.on('audioTrack', (track) => bridge.listen(track));
    connection.on('disconnected', (reason) => {
      if (!bridge.left) options.onGone(reason);
    });
    return bridge;
  }

  /** The caller's decoded voice (48 kHz mono) into the room. */
  callerAudio(pcm: Int16Array): void {
    if (this.left) return;
    if (this.output.queuedMs > MAX_CALLER_QUEUE_MS) {
      this.droppedCallerFrames += 1;
      return;
    }
    this.output.write({ samples: pcm, sampleRate: 48_000, channels: 1 }).catch(() => undefined);
  }

  /** The room's audio for the next 20 ms (silence when nobody speaks). */
  nextFrame(): Int16Array {
    this.mix.fill(0);
    for (const speaker of this.speakers.values()) speaker.mixInto(this.mix);
    const frame = new Int16Array(ROOM_FRAME_SAMPLES);
    for (let index = 0; index < frame.length; index += 1) frame[index] = Math.max(-32768, Math.min(32767, this.mix[index]!));
    return frame;
  }

  publishDtmf(code: number, digit: string): void {
    if (this.left) return;
    this.connection.publishDtmf(code, digit).catch(() => undefined);
  }

  async setAttributes(attributes: Record<string, string>): Promise<void> {
    if (!this.left) await this.connection.setAttributes(attributes);
  }

  async leave(): Promise<void> {
    if (this.left) return;
    this.left = true;
    await this.output.close().catch(() => undefined);
    await this.connection.leave();
  }

  private listen(track: RemoteAudioTrack): void {
    if (this.speakers.has(track.trackSid)) return;
    const speaker = new SpeakerBuffer();
    this.speakers.set(track.trackSid, speaker);
    void (async () => {
      for await (const frame of track.frames()) speaker.push(frame.samples);
      this.speakers.delete(track.trackSid);
    })();
  }
}
