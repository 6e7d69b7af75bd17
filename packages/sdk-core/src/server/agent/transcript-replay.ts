import { parseDataPacket } from '../../contract/sdk.js';
import { transcriptLineKey } from '../../contract/streamed-transcript.js';
import { MESSAGE_TOPIC, TRANSCRIPT_RESUME_TOPIC } from '../../contract/wire.js';
import type { AgentRoomConnection, ReceivedData } from '../engines/media/index.js';

/** The most lines a session keeps for replay (a long call's oldest are dropped first). */
export const MAX_REPLAY_LINES = 2_000;

interface LoggedLine {
  /** The packet as last sent (JSON of `SDKSessionTranscription`). */
  packet: string;
  /** When it was last sent, ms on the agent's clock. */
  sentAt: number;
}

/**
 * A session's transcript lines as last sent (latest version per (`id`, `agent`), the last {@link MAX_REPLAY_LINES}),
 * for replay after a resume: what the built-in agent sent on `message`, or what the platform saw a LiveKit Agents
 * worker send as text streams.
 *
 * @example
 * log.record(JSON.stringify(line)); log.since(after); // the packets to send again, oldest first
 */
export class TranscriptLog {
  private readonly lines = new Map<string, LoggedLine>();

  /** Logs a `message` packet (JSON of `SDKSessionTranscription`; anything else is ignored), sent at `sentAt` (agent's clock). */
  record(packet: string, sentAt: number = Date.now()): void {
    const line = parseDataPacket(MESSAGE_TOPIC, packet);
    if (line?.topic !== MESSAGE_TOPIC) return;
    const key = transcriptLineKey(line.payload);
    this.lines.delete(key);
    this.lines.set(key, { packet, sentAt });
    if (this.lines.size > MAX_REPLAY_LINES) this.lines.delete(this.lines.keys().next().value as string);
  }

  /** The packets of every line last sent at or after `after` (all on null), oldest first; none for an unreadable time. */
  since(after: string | null): string[] {
    const since = after === null ? Number.NEGATIVE_INFINITY : Date.parse(after);
    if (Number.isNaN(since)) return [];
    return [...this.lines.values()]
      .filter((line) => line.sentAt >= since)
      .sort((a, b) => a.sentAt - b.sentAt)
      .map((line) => line.packet);
  }
}

/**
 * Answers a `transcript_resume` request `{after}` from the session's human with `log.since(after)`, on `message`, to
 * them only, one packet at a time. Requests from anyone else are not answered. Returns the unsubscribe.
 *
 * @example
 * const stop = answerTranscriptResumes(observer, 'human-1', log);
 */
export function answerTranscriptResumes(
  connection: Pick<AgentRoomConnection, 'on' | 'sendData'>,
  humanIdentity: string,
  log: TranscriptLog,
  send: AgentRoomConnection['sendData'] = connection.sendData.bind(connection),
): () => void {
  const replay = async (after: string | null): Promise<void> => {
    for (const packet of log.since(after)) await send(packet, { topic: MESSAGE_TOPIC, reliable: true, destinationIdentities: [humanIdentity] });
  };
  return connection.on('data', (received: ReceivedData) => {
    if (received.from !== humanIdentity) return;
    const packet = parseDataPacket(received.topic, new TextDecoder().decode(received.payload));
    if (packet?.topic !== TRANSCRIPT_RESUME_TOPIC) return;
    // A replay that fails met a connection that dropped again: the next resume asks again.
    replay(packet.payload.after).catch(() => {});
  });
}

/**
 * The agent's transcript lines as it last sent them, replayed to a human whose connection resumed: every
 * `message` packet the connection sends to the room is logged (latest version per line), and a `transcript_resume`
 * request `{after}` from the human is answered, on `message` to them only, oldest first, with every line last sent at
 * or after `after`. A dropped connection loses packets in flight; this gives them back (clients upsert by
 * (`id`, `agent`), so a line they had shows once).
 *
 * @example
 * const stop = replayTranscripts(connection, 'human-1'); // before the agent says anything
 */
export function replayTranscripts(connection: AgentRoomConnection, humanIdentity: string): () => void {
  const log = new TranscriptLog();
  const send = connection.sendData.bind(connection);
  connection.sendData = async (payload, options) => {
    if (options?.topic === MESSAGE_TOPIC && typeof payload === 'string' && options.destinationIdentities === undefined) log.record(payload);
    return send(payload, options);
  };
  return answerTranscriptResumes(connection, humanIdentity, log, send);
}
