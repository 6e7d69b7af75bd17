import type { SDKSessionTranscription } from './sdk.js';
import { CHAT_STREAM_TOPIC, SEGMENT_ID_ATTRIBUTE, TRANSCRIPTION_FINAL_ATTRIBUTE, TRANSCRIPTION_STREAM_TOPIC } from './wire.js';

/** What a LiveKit text stream's header says (livekit-client's `TextStreamInfo`; the server's `IncomingTextStream`). */
export interface StreamHeader {
  /** The stream's id. */
  id: string;
  topic: string;
  /** When the sender opened it, ms since the epoch on the sender's clock. */
  timestamp: number;
  /** The header's attributes, merged with the trailer's once the stream ended. */
  attributes?: Readonly<Record<string, string>> | undefined;
}

/** The most lines kept (a long call's oldest are forgotten first: a later stream of one of them starts it anew). */
const MAX_LINES = 2_000;

/** Whether text streams on `topic` carry transcript lines (`lk.transcription`, `lk.chat`). */
export function carriesTranscript(topic: string): boolean {
  return topic === TRANSCRIPTION_STREAM_TOPIC || topic === CHAT_STREAM_TOPIC;
}

/** The key clients upsert lines by: (`id`, `agent`). */
export function transcriptLineKey(line: Pick<SDKSessionTranscription, 'id' | 'agent'>): string {
  return `${line.agent ? 'agent' : 'human'}:${line.id}`;
}

/**
 * LiveKit's transcript text streams as Palaver's transcript lines (`SDKSessionTranscription`), read the same way by
 * the connector and by the platform's observer of a worker-run session (decision 0123). A line is an
 * `lk.transcription` segment (`lk.segment_id`; each stream carries its whole text so far: one delta stream per segment,
 * or one complete stream per update) or one `lk.chat` stream. It is final once a stream ends that is not marked
 * `lk.transcription_final: false`, or ends as the agent's own speech (LiveKit Agents send it as one delta stream per
 * segment, closed when said); once final it stays final. `created_at` is the sender's time of the segment's first
 * stream, so both readers give a line the same time (on the agent's clock, as `transcript_resume` wants).
 *
 * @example
 * const lines = new StreamedTranscript();
 * for await (const chunk of reader) { text += chunk; show(lines.update(reader.info, agent, text, false)); }
 * show(lines.update(reader.info, agent, text, true));
 */
export class StreamedTranscript {
  private readonly lines = new Map<string, SDKSessionTranscription>();

  /**
   * The line's version once `text` (all the stream carried so far) arrived, `ended` when the stream closed.
   * `agent`: the words are the agent's own (the sender is the agent, not speaking for someone else).
   */
  update(stream: StreamHeader, agent: boolean, text: string, ended: boolean, now: Date = new Date()): SDKSessionTranscription {
    const attributes = stream.attributes ?? {};
    const id = (stream.topic === TRANSCRIPTION_STREAM_TOPIC ? attributes[SEGMENT_ID_ATTRIBUTE] : undefined) || stream.id;
    const key = transcriptLineKey({ id, agent });
    const previous = this.lines.get(key);
    const final = previous?.final === true || (ended && (attributes[TRANSCRIPTION_FINAL_ATTRIBUTE] !== 'false' || agent));
    const opened = Number.isFinite(stream.timestamp) && stream.timestamp > 0 ? new Date(stream.timestamp) : now;
    const line: SDKSessionTranscription = {
      id,
      agent,
      final,
      created_at: previous?.created_at ?? opened.toISOString(),
      speaking_ended_at: final ? (previous?.speaking_ended_at ?? now.toISOString()) : null,
      text: text.trim(),
    };
    this.lines.delete(key);
    this.lines.set(key, line);
    if (this.lines.size > MAX_LINES) this.lines.delete(this.lines.keys().next().value as string);
    return line;
  }
}
