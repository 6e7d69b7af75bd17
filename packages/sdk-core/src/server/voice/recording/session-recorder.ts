import type { AudioFrame, AudioOutput, RemoteAudioTrack } from '../../engines/media/index.js';
import { encodeWav, LinearResampler } from '../../engines/speech/index.js';

/** The recording's sample rate: speech quality at a third of the media's 48 kHz. */
export const RECORDING_SAMPLE_RATE = 16_000;
/** A recording stops growing at this length (20 min of 16 kHz stereo PCM16: ~77 MB). */
export const MAX_RECORDING_SECONDS = 20 * 60;
/** A source further behind the clock than this gets silence first (the human muted, the agent between turns). */
const GAP_TOLERANCE_MS = 100;
const MAX_SAMPLES = MAX_RECORDING_SECONDS * RECORDING_SAMPLE_RATE;

/** Which channel a source is recorded on: the human left, the agent right. */
export type RecordedSideName = 'human' | 'agent';

/** One source writing on a side (a track, the agent's output): its own place on the clock and its resampler. */
class SideWriter {
  position = 0;
  resampler: LinearResampler | undefined;
}

/**
 * One side of the conversation: 16 kHz PCM16 placed on the session's clock. Each source writes at its own position;
 * sources that overlap (two agents in an app run's room, two microphones) are mixed.
 */
class RecordedSide {
  private buffer = new Int16Array(RECORDING_SAMPLE_RATE * 10);
  private readonly writers: SideWriter[] = [];

  /** Samples from the start to the end of the furthest source. */
  get length(): number {
    return this.writers.reduce((furthest, writer) => Math.max(furthest, writer.position), 0);
  }

  writer(): SideWriter {
    const writer = new SideWriter();
    this.writers.push(writer);
    return writer;
  }

  /** Mixes `frame` in at the writer's position, first moving it up to `atSample` when it fell behind the clock. */
  write(writer: SideWriter, frame: AudioFrame, atSample: number): void {
    const tolerance = (GAP_TOLERANCE_MS * RECORDING_SAMPLE_RATE) / 1000;
    if (atSample - writer.position > tolerance) writer.position = Math.round(atSample);
    if (writer.resampler?.inputRate !== frame.sampleRate) writer.resampler = new LinearResampler(frame.sampleRate, RECORDING_SAMPLE_RATE);
    const samples = writer.resampler.push(frame.channels === 1 ? frame.samples : firstChannel(frame));
    const end = Math.min(writer.position + samples.length, MAX_SAMPLES);
    if (end <= writer.position) return;
    this.reserve(end);
    for (let index = writer.position; index < end; index++) {
      const mixed = this.buffer[index]! + samples[index - writer.position]!;
      this.buffer[index] = mixed > 32_767 ? 32_767 : mixed < -32_768 ? -32_768 : mixed;
    }
    writer.position = end;
  }

  /** Forgets the writer's last `samples` (audio queued for the room and then dropped on barge-in). */
  drop(writer: SideWriter, samples: number): void {
    const from = Math.max(0, writer.position - Math.round(samples));
    this.buffer.fill(0, from, writer.position);
    writer.position = from;
  }

  /** Writes this side into `target` as channel `channel` of `channels` interleaved ones. */
  copyInto(target: Int16Array, channel: number, channels: number): void {
    const length = Math.min(this.length, target.length / channels);
    for (let index = 0; index < length; index++) target[index * channels + channel] = this.buffer[index]!;
  }

  private reserve(samples: number): void {
    if (samples <= this.buffer.length) return;
    const grown = new Int16Array(Math.min(MAX_SAMPLES, Math.max(samples, this.buffer.length * 2)));
    grown.set(this.buffer);
    this.buffer = grown;
  }
}

function firstChannel(frame: AudioFrame): Int16Array {
  const mono = new Int16Array(frame.samples.length / frame.channels);
  for (let index = 0; index < mono.length; index++) mono[index] = frame.samples[index * frame.channels]!;
  return mono;
}

/** A finished two-channel recording. */
export interface RecordedConversation {
  wav: Uint8Array;
  channels: 2;
  sampleRate: number;
  durationMs: number;
}

/**
 * Records both sides of a voice conversation (decisions 0112, 0122): the human on the left channel, the agent on
 * the right, each placed on the session's clock (a side that was silent, muted or between turns is padded with
 * silence), at 16 kHz. The built-in agent taps the frames where it already has them (the human's track as its
 * pipeline reads it, its own PCM as queued for the room; what a barge-in drops is taken back out); a hidden observer
 * of a room (a LiveKit Agents worker's session, an app run) records the tracks it subscribed to.
 *
 * @example
 * const recorder = new SessionRecorder();
 * const output = recorder.tapOutput(await connection.publishAudio({ name: 'agent_voice', sampleRate: 48_000 }));
 * pipeline.listen(recorder.tapTrack(track));
 * void recorder.record(workerTrack, 'agent');
 * const { wav, durationMs } = recorder.finish();
 */
export class SessionRecorder {
  private readonly sides: Record<RecordedSideName, RecordedSide> = { human: new RecordedSide(), agent: new RecordedSide() };
  private readonly startedAt: number;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.startedAt = now();
  }

  /** `track`, whose frames are recorded on `side` as its reader (the pipeline) reads them. */
  tapTrack(track: RemoteAudioTrack, side: RecordedSideName = 'human'): RemoteAudioTrack {
    const recorded = this.sides[side];
    const writer = recorded.writer();
    const clock = () => this.clockSamples();
    async function* frames(): AsyncGenerator<AudioFrame> {
      for await (const frame of track.frames()) {
        recorded.write(writer, frame, clock());
        yield frame;
      }
    }
    return new Proxy(track, { get: (target, key): unknown => (key === 'frames' ? frames : Reflect.get(target, key, target)) });
  }

  /** Reads `track` to its end, recording it on `side` (a track nobody else reads: a hidden observer's). */
  async record(track: RemoteAudioTrack, side: RecordedSideName): Promise<void> {
    for await (const _frame of this.tapTrack(track, side).frames());
  }

  /** The agent's output, whose PCM is recorded at the time it will be heard. */
  tapOutput(output: AudioOutput): AudioOutput {
    const agent = this.sides.agent;
    const writer = agent.writer();
    const at = () => this.clockSamples() + (output.queuedMs * RECORDING_SAMPLE_RATE) / 1000;
    return {
      get trackSid() {
        return output.trackSid;
      },
      get queuedMs() {
        return output.queuedMs;
      },
      write: (frame) => {
        agent.write(writer, frame, at());
        return output.write(frame);
      },
      flush: () => {
        const droppedMs = output.flush();
        agent.drop(writer, (droppedMs * RECORDING_SAMPLE_RATE) / 1000);
        return droppedMs;
      },
      drained: () => output.drained(),
      close: () => output.close(),
    };
  }

  /** The WAV of both sides: stereo, interleaved, as long as the longer side. */
  finish(): RecordedConversation {
    const frames = Math.max(this.sides.human.length, this.sides.agent.length);
    const interleaved = new Int16Array(frames * 2);
    this.sides.human.copyInto(interleaved, 0, 2);
    this.sides.agent.copyInto(interleaved, 1, 2);
    return {
      wav: encodeWav(interleaved, RECORDING_SAMPLE_RATE, 2),
      channels: 2,
      sampleRate: RECORDING_SAMPLE_RATE,
      durationMs: (frames / RECORDING_SAMPLE_RATE) * 1000,
    };
  }

  private clockSamples(): number {
    return ((this.now() - this.startedAt) * RECORDING_SAMPLE_RATE) / 1000;
  }
}
