import type { Logger } from 'pino';
import type {
  StreamingSttEngine,
  StreamingSttError,
  StreamingSttMeter,
  StreamingSttStream,
  SttEngine,
  SttSession,
  SttSessionOptions,
} from '../../engines/speech/index.js';
import { StreamSegmentSession } from './stream-segment-session.js';

/** The human's track's one vendor stream, as the listener holds it for the whole session. */
export interface TrackStream {
  /** Audio as it arrives (at the rate the stream was opened with). */
  push(pcm: Int16Array): void;
  /** An utterance's session over the stream (results while it is open; `finish()` finalizes). */
  session(): StreamSegmentSession;
  /** Flushes and closes the stream (its seconds are metered then). */
  close(): Promise<void>;
}

export interface TrackStreamOptions {
  sampleRate: number;
  language?: string;
  /** The stream's seconds, once when it ends (e.g. the session's human's usage). */
  meter?: StreamingSttMeter | undefined;
  logger: Logger;
  /** The stream failed for good (a refused key, reconnects exhausted): once. */
  failed(error: Error): void;
}

/**
 * The listener's face of a hosted streaming STT engine (`Speech.streamingStt`). As an {@link SttEngine} (for
 * callers that transcribe utterance by utterance) each session opens a stream of its own; the listener instead
 * opens one stream per human track with `openTrack` and makes each utterance a session over it.
 *
 * @example
 * const stt = new StreamingListeningStt(speech.streamingStt);
 * const track = stt.openTrack({ sampleRate: 16000, logger, failed: (error) => report(error) });
 * track.push(pcm);
 * const text = await track.session().finish();
 */
export class StreamingListeningStt implements SttEngine {
  constructor(readonly streaming: StreamingSttEngine) {}

  get provider(): string {
    return this.streaming.provider;
  }

  status(): ReturnType<SttEngine['status']> {
    return this.streaming.status();
  }

  createSession(options: SttSessionOptions): SttSession {
    const stream = this.streaming.open({
      sampleRate: options.sampleRate,
      ...(options.language ? { language: options.language } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const session = new StreamSegmentSession(stream, { ownsAudio: true });
    stream.on('error', (error) => session.emit('error', error));
    return session;
  }

  openTrack(options: TrackStreamOptions): TrackStream {
    const stream = this.streaming.open({
      sampleRate: options.sampleRate,
      ...(options.language ? { language: options.language } : {}),
      ...(options.meter ? { meter: options.meter } : {}),
    });
    watchStream(stream, this.provider, options);
    return {
      push: (pcm) => stream.push(pcm),
      session: () => new StreamSegmentSession(stream, { ownsAudio: false }),
      close: () => stream.close(),
    };
  }

  close(): Promise<void> {
    return this.streaming.close();
  }
}

/** Reconnects and passing vendor errors go to the log; a fatal error to `failed`, once. */
function watchStream(stream: StreamingSttStream, provider: string, options: TrackStreamOptions): void {
  const { logger } = options;
  stream.on('reconnecting', ({ attempt, delayMs, cause }) => logger.warn({ err: cause, attempt, delayMs, provider }, 'streaming STT reconnecting'));
  stream.on('reconnected', ({ attempt }) => logger.info({ attempt, provider }, 'streaming STT reconnected'));
  stream.on('error', (error: StreamingSttError) => {
    if (!error.fatal) logger.warn({ err: error, provider }, 'streaming STT reported an error');
  });
  stream.on('closed', ({ error, audioSeconds }) => {
    logger.debug({ provider, audioSeconds }, 'streaming STT stream closed');
    if (error) options.failed(error);
  });
}
