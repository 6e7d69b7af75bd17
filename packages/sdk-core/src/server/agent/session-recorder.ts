import type { AudioFrame, AudioOutput, RemoteAudioTrack } from '../engines/media/index.js';
import { encodeWav, LinearResampler } from '../engines/speech/index.js';

/** The recording's sample rate: speech quality at a third of the media's 48 kHz. */
export const RECORDING_SAMPLE_RATE = 16_000;
/** A recording stops growing at this length (20 min of 16 kHz stereo PCM16: ~77 MB). */
export const MAX_RECORDING_SECONDS = 20 * 60;
/** A side further behind the clock than this gets silence first (the human muted, the agent between turns). */
const GAP_TOLERANCE_MS = 100;

/** One side of the conversation: 16 kHz PCM16 placed on the session's clock. */
class RecordedSide {
  private readonly chunks: Int16Array[] = [];
  private resampler: LinearResampler | undefined;
  length = 0;

  /** Appends `frame`, first padding with silence up to `atSample` when this side fell behind the clock. */
  write(frame: AudioFrame, atSample: number): void {
    const tolerance = (GAP_TOLERANCE_MS * RECORDING_SAMPLE_RATE) / 1000;
    if (atSample - this.length > tolerance) this.append(new Int16Array(Math.round(atSample - this.length)));
    if (this.resampler?.inputRate !== frame.sampleRate) this.resampler = new LinearResampler(frame.sampleRate, RECORDING_SAMPLE_RATE);
    this.append(this.resampler.push(frame.channels === 1 ? frame.samples : firstChannel(frame)));
  }

  /** Forgets the last `samples` (audio queued for the room and then dropped on barge-in). */
  drop(samples: number): void {
    let left = Math.min(Math.round(samples), this.length);
    while (left > 0) {
      const last = this.chunks[this.chunks.length - 1]!;
      if (last.length <= left) {
        this.chunks.pop();
        left -= last.length;
        this.length -= last.length;
      } else {
        this.chunks[this.chunks.length - 1] = last.subarray(0, last.length - left);
        this.length -= left;
        left = 0;
      }
    }
  }

  /** Writes this side into `target` as channel `channel` of `channels` interleaved ones. */
  copyInto(target: Int16Array, channel: number, channels: number): void {
    let position = 0;
    for (const chunk of this.chunks) {
      for (let index = 0; index < chunk.length; index++) target[(position + index) * channels + channel] = chunk[index]!;
      position += chunk.length;
    }
  }

  private append(samples: Int16Array): void {
    const room = MAX_RECORDING_SECONDS * RECORDING_SAMPLE_RATE - this.length;
    if (room <= 0 || samples.length === 0) return;
    const kept = samples.length > room ? samples.subarray(0, room) : samples;
    // Copied: frames' buffers may be reused by their producer.
    this.chunks.push(kept.slice());
    this.length += kept.length;
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
 * Records both sides of a voice session (decision 0112): the human's track on the left channel, the agent's
 * speech on the right, each placed on the session's clock (a side that was silent, muted or between turns is
 * padded with silence), at 16 kHz. It taps the frames where the agent already has them: the human's track as the
 * pipeline reads it, the agent's PCM as it is queued for the room (what a barge-in drops is taken back out).
 *
 * @example
 * const recorder = new SessionRecorder();
 * const output = recorder.tapOutput(await connection.publishAudio({ name: 'agent_voice', sampleRate: 48_000 }));
 * pipeline.listen(recorder.tapTrack(track));
 * const { wav, durationMs } = recorder.finish();
 */
export class SessionRecorder {
  private readonly human = new RecordedSide();
  private readonly agent = new RecordedSide();
  private readonly startedAt: number;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.startedAt = now();
  }

  /** The human's track, whose frames are recorded as the pipeline reads them. */
  tapTrack(track: RemoteAudioTrack): RemoteAudioTrack {
    const { human } = this;
    const clock = () => this.clockSamples();
    async function* frames(): AsyncGenerator<AudioFrame> {
      for await (const frame of track.frames()) {
        human.write(frame, clock());
        yield frame;
      }
    }
    return new Proxy(track, { get: (target, key): unknown => (key === 'frames' ? frames : Reflect.get(target, key, target)) });
  }

  /** The agent's output, whose PCM is recorded at the time it will be heard. */
  tapOutput(output: AudioOutput): AudioOutput {
    const agent = this.agent;
    const at = () => this.clockSamples() + (output.queuedMs * RECORDING_SAMPLE_RATE) / 1000;
    return {
      get trackSid() {
        return output.trackSid;
      },
      get queuedMs() {
        return output.queuedMs;
      },
      write: (frame) => {
        agent.write(frame, at());
        return output.write(frame);
      },
      flush: () => {
        const droppedMs = output.flush();
        agent.drop((droppedMs * RECORDING_SAMPLE_RATE) / 1000);
        return droppedMs;
      },
      drained: () => output.drained(),
      close: () => output.close(),
    };
  }

  /** The WAV of both sides: stereo, interleaved, as long as the longer side. */
  finish(): RecordedConversation {
    const frames = Math.max(this.human.length, this.agent.length);
    const interleaved = new Int16Array(frames * 2);
    this.human.copyInto(interleaved, 0, 2);
    this.agent.copyInto(interleaved, 1, 2);
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
