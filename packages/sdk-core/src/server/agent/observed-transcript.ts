import type { SDKSessionTranscription } from '../../contract/sdk.js';
import { StreamedTranscript } from '../../contract/streamed-transcript.js';
import { CHAT_STREAM_TOPIC } from '../../contract/wire.js';
import type { AgentRoomConnection, IncomingTextStream } from '../engines/media/index.js';
import { answerTranscriptResumes, TranscriptLog } from './transcript-replay.js';

/**
 * The transcript of a worker-run session as the platform's observer sees it: the `lk.transcription` and `lk.chat`
 * text streams read as the connector reads them (`StreamedTranscript`), every version logged for `transcript_resume`
 * (decision 0123) at the agent's time (the stream's header time plus the time since it arrived here, so the client's
 * `after`, a `created_at` on the agent's clock, compares without skew).
 *
 * @example
 * const transcript = new ObservedTranscript('human-1');
 * const stop = transcript.answerResumes(observer);
 * const line = await transcript.read(stream, stream.from === agentIdentity);
 */
export class ObservedTranscript {
  private readonly log = new TranscriptLog();
  private readonly lines = new StreamedTranscript();

  constructor(private readonly humanIdentity: string) {}

  /** Answers the human's `transcript_resume` requests with the lines observed (to them only). Returns the unsubscribe. */
  answerResumes(observer: AgentRoomConnection): () => void {
    return answerTranscriptResumes(observer, this.humanIdentity, this.log);
  }

  /**
   * Reads one observed stream to its end, logging each version of its line; resolves with the line as the stream left
   * it. `agent`: the words are the agent's own. The human's own typed chat is not logged (their client has it).
   */
  async read(stream: IncomingTextStream, agent: boolean): Promise<SDKSessionTranscription> {
    const offset = stream.timestamp > 0 ? stream.timestamp - Date.now() : 0;
    const logged = !(stream.topic === CHAT_STREAM_TOPIC && stream.from === this.humanIdentity);
    let text = '';
    const keep = (ended: boolean): SDKSessionTranscription => {
      const line = this.lines.update(stream, agent, text, ended);
      if (logged && line.text) this.log.record(JSON.stringify(line), Date.now() + offset);
      return line;
    };
    for await (const chunk of stream) {
      text += chunk;
      keep(false);
    }
    return keep(true);
  }
}
