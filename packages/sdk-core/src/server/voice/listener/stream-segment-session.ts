import { BaseSttSession, type StreamingFinal, type StreamingInterim, type StreamingSttStream, type TranscriptWord } from '../../engines/speech/index.js';

/**
 * After `finalize()`, how long to wait for the vendor's settled words: when it had words in flight (an interim not
 * yet final), and when it had none (a vendor may not answer a finalize with nothing to settle).
 */
const FINALIZE_TIMEOUT_MS = 1000;
const NOTHING_PENDING_TIMEOUT_MS = 300;

/**
 * An utterance's {@link SttSession} over a long-lived vendor stream (one per human track): the vendor's results
 * while the session is open are its transcript. `finish()` asks the vendor to settle (`finalize()`) and resolves with
 * the text of the finals since the last `finish()` once the finalize's final came, and emits a `final` transcript
 * event with their words and confidences (as pocketsphinx's segment finals). Pushing again after `finish()`
 * continues with the next segment. The track's audio is pushed to the stream by its owner, not through the session
 * (`ownsAudio` false); a session that owns its stream pushes and closes it.
 *
 * @example
 * const session = new StreamSegmentSession(trackStream, { ownsAudio: false });
 * session.on('transcript', (event) => show(event.text));
 * const text = await session.finish();
 */
export class StreamSegmentSession extends BaseSttSession {
  /** The vendor's endpointing hint: it called the end of the speech (a final with `endOfSpeech`). */
  onEndOfSpeech: ((final: StreamingFinal) => void) | undefined;
  private finals: StreamingFinal[] = [];
  private interimResult: StreamingInterim | undefined;
  private settling: { promise: Promise<string>; resolve: (text: string) => void; timer: NodeJS.Timeout } | undefined;
  private readonly detach: () => void;

  constructor(
    private readonly stream: StreamingSttStream,
    private readonly options: { ownsAudio: boolean },
  ) {
    super();
    const onInterim = (result: StreamingInterim) => this.heardInterim(result);
    const onFinal = (result: StreamingFinal) => this.heardFinal(result);
    const onClosed = () => this.settle();
    stream.on('interim', onInterim);
    stream.on('final', onFinal);
    stream.on('closed', onClosed);
    this.detach = () => {
      stream.off('interim', onInterim);
      stream.off('final', onFinal);
      stream.off('closed', onClosed);
    };
  }

  /** The words of the segment so far: its finals, then the vendor's latest interim. */
  get text(): string {
    return joinTexts([...this.finals.map((final) => final.text), this.interimResult?.text ?? '']);
  }

  push(pcm: Int16Array): void {
    if (this.options.ownsAudio && !this.closed) this.stream.push(pcm);
  }

  peek(): Promise<string> {
    return Promise.resolve(this.text);
  }

  finish(): Promise<string> {
    if (this.closed) return Promise.resolve('');
    if (this.settling) return this.settling.promise;
    let resolve!: (text: string) => void;
    const promise = new Promise<string>((done) => (resolve = done));
    const timeoutMs = this.interimResult ? FINALIZE_TIMEOUT_MS : NOTHING_PENDING_TIMEOUT_MS;
    this.settling = { promise, resolve, timer: setTimeout(() => this.settle(), timeoutMs) };
    this.stream.finalize();
    return promise;
  }

  close(): void {
    if (this.closed) return;
    this.settle();
    this.closed = true;
    this.detach();
    if (this.options.ownsAudio) void this.stream.close();
  }

  private heardInterim(result: StreamingInterim): void {
    if (this.closed || result.text.trim() === '') return;
    this.interimResult = result;
    this.emit('transcript', { type: 'interim', text: this.text, utterance: this.utterance });
  }

  private heardFinal(result: StreamingFinal): void {
    if (this.closed) return;
    if (result.text.trim() !== '') {
      this.finals.push(result);
      this.interimResult = undefined;
      this.emit('transcript', { type: 'interim', text: this.text, utterance: this.utterance });
    }
    if (result.endOfSpeech) this.onEndOfSpeech?.(result);
    if (result.fromFinalize) this.settle();
  }

  /** The segment is over: its finals become the `final` transcript and `finish()`'s text. */
  private settle(): void {
    const settling = this.settling;
    if (!settling) return;
    clearTimeout(settling.timer);
    this.settling = undefined;
    const finals = this.finals;
    this.finals = [];
    this.interimResult = undefined;
    const text = joinTexts(finals.map((final) => final.text));
    const words: TranscriptWord[] = finals.flatMap((final) => final.words.map(({ word, confidence }) => ({ word, confidence })));
    this.emit('transcript', { type: 'final', text, words, utterance: this.utterance });
    this.utterance += 1;
    settling.resolve(text);
  }
}

function joinTexts(texts: string[]): string {
  return texts
    .map((text) => text.trim())
    .filter((text) => text !== '')
    .join(' ');
}
