import type { Logger } from 'pino';
import type { Speech } from '../../engines/speech/index.js';
import { HumanListener, loadListeningEngines, type HeardUtterance, type ListeningEngines, type TurnDetectionOptions } from '../../voice/index.js';
import { PushedAudioTrack, REALTIME_SAMPLE_RATE } from './pushed-audio-track.js';
import { RealtimeRequestError } from './realtime-errors.js';
import { realtimeId } from './realtime-ids.js';

/** What the input reports to the session. */
export interface RealtimeInputEvents {
  /** Server VAD: speech began (the item the utterance will be). */
  speechStarted(itemId: string, audioStartMs: number): void;
  /** Server VAD: speech is likely starting, early enough to stop the answer being spoken (barge-in). */
  speechLikely(): void;
  /** Server VAD: the human's turn ended with these words (empty: noise). */
  heard(itemId: string, text: string, audioEndMs: number): void;
  /** The STT failed; listening goes on. */
  failed(error: Error): void;
}

/**
 * The session's input audio buffer over the voice layer's listener: with server VAD the appended audio is the
 * human's track, listened to by a `HumanListener` (VAD, STT per utterance, adaptive end of turn), which reports each
 * turn; without, the audio waits for `input_audio_buffer.commit` and is transcribed whole by the same STT engine.
 *
 * @example
 * const input = new RealtimeInput(sessionId, speech, logger, events);
 * await input.start(turnDetection);
 * input.append(pcm24k);
 */
export class RealtimeInput {
  private track: PushedAudioTrack;
  private listener: HumanListener | undefined;
  private engines: Promise<ListeningEngines> | undefined;
  /** Audio appended since the last commit or clear (without server VAD). */
  private pending: Int16Array[] = [];
  private detection: TurnDetectionOptions | undefined;
  private closed = false;

  constructor(
    private readonly sessionId: string,
    private readonly speech: Pick<Speech, 'stt' | 'vad'>,
    private readonly logger: Logger,
    private readonly events: RealtimeInputEvents,
  ) {
    this.track = new PushedAudioTrack(sessionId);
  }

  /** Loads the listening engines (once); with `detection`, the listener runs (server VAD), else audio waits for a commit. */
  async start(detection: TurnDetectionOptions | undefined): Promise<void> {
    // Set at once: audio appended while the engines load waits in the new track for the listener.
    this.detection = detection;
    this.listener?.close();
    this.listener = undefined;
    if (detection) {
      this.track.end();
      this.track = new PushedAudioTrack(this.sessionId);
    }
    const engines = await (this.engines ??= loadListeningEngines(this.speech, this.logger));
    if (this.closed || this.detection !== detection || !detection) return;
    if (!engines.vad)
      throw new RealtimeRequestError(
        'Server VAD is not available on this server (no voice activity detector).',
        'session.audio.input.turn_detection',
        'not_supported',
      );
    this.listener = this.listen(engines, engines.vad, detection);
    void this.listener.run();
  }

  append(pcm: Int16Array): void {
    if (this.detection) this.track.push(pcm);
    else this.pending.push(pcm);
  }

  /** Without server VAD: the audio appended becomes a user item; answers its id and transcript. */
  async commit(): Promise<{ itemId: string; transcript: string }> {
    if (this.detection) throw new RealtimeRequestError('With server VAD the server commits the buffer at the end of each turn.', null, 'not_supported');
    const samples = this.pending.reduce((total, chunk) => total + chunk.length, 0);
    if (samples < REALTIME_SAMPLE_RATE / 10) {
      throw new RealtimeRequestError(
        `Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has ${Math.round((samples / REALTIME_SAMPLE_RATE) * 1000)}ms of audio.`,
        null,
        'input_audio_buffer_commit_empty',
      );
    }
    const audio = this.pending;
    this.pending = [];
    return { itemId: realtimeId('item'), transcript: await this.transcribe(audio) };
  }

  /** The words of 24 kHz PCM, by the STT engine the listener uses (empty without one). */
  async transcribe(audio: Int16Array[]): Promise<string> {
    const engines = await (this.engines ??= loadListeningEngines(this.speech, this.logger));
    if (!engines.stt) return '';
    const session = engines.stt.createSession({ sampleRate: REALTIME_SAMPLE_RATE });
    try {
      for (const chunk of audio) session.push(chunk);
      return (await session.finish()).trim();
    } finally {
      session.close();
    }
  }

  clear(): void {
    this.pending = [];
  }

  close(): void {
    this.closed = true;
    this.listener?.close();
    this.track.end();
  }

  private listen(engines: ListeningEngines, vad: NonNullable<ListeningEngines['vad']>, detection: TurnDetectionOptions): HumanListener {
    const track = this.track;
    return new HumanListener({
      track,
      vad,
      stt: engines.stt,
      turnDetection: detection,
      logger: this.logger,
      callbacks: {
        speechStarted: () => {
          const itemId = realtimeId('item');
          this.events.speechStarted(itemId, track.readMs);
          return {
            interim: () => undefined,
            finished: (utterance: HeardUtterance) => this.events.heard(itemId, utterance.text.trim(), track.audioMsAt(utterance.speechEndedAt)),
          };
        },
        speechLikely: () => this.events.speechLikely(),
        failed: (error) => this.events.failed(error),
      },
    });
  }
}
