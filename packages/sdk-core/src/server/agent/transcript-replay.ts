import { parseDataPacket } from '../../contract/sdk.js';
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
 * The agent's transcript lines as it last sent them, replayed to a human whose connection resumed: every
 * `message` packet the connection sends is logged (latest version per line), and a `transcript_resume` request
 * `{after}` from the human is answered, on `message` to them only, oldest first, with every line last sent at or
 * after `after`. A dropped connection loses packets in flight; this gives them back (clients upsert by
 * (`id`, `agent`), so a line they had shows once).
 *
 * @example
 * const stop = replayTranscripts(connection, 'human-1'); // before the agent says anything
 */
export function replayTranscripts(connection: AgentRoomConnection, humanIdentity: string): () => void {
  const lines = new Map<string, LoggedLine>();
  const send = connection.sendData.bind(connection);
  connection.sendData = async (payload, options) => {
    if (options?.topic === MESSAGE_TOPIC && typeof payload === 'string' && options.destinationIdentities === undefined) log(lines, payload);
    return send(payload, options);
  };
  const replay = async (after: string | null): Promise<void> => {
    const since = after === null ? Number.NEGATIVE_INFINITY : Date.parse(after);
    if (Number.isNaN(since)) return;
    const due = [...lines.values()].filter((line) => line.sentAt >= since).sort((a, b) => a.sentAt - b.sentAt);
    for (const line of due) await send(line.packet, { topic: MESSAGE_TOPIC, reliable: true, destinationIdentities: [humanIdentity] });
  };
  return connection.on('data', (received: ReceivedData) => {
    if (received.from !== humanIdentity) return;
    const packet = parseDataPacket(received.topic, new TextDecoder().decode(received.payload));
    if (packet?.topic !== TRANSCRIPT_RESUME_TOPIC) return;
    // A replay that fails met a connection that dropped again: the next resume asks again.
    replay(packet.payload.after).catch(() => {});
  });
}

function log(lines: Map<string, LoggedLine>, packet: string): void {
  const line = parseDataPacket(MESSAGE_TOPIC, packet);
  if (line?.topic !== MESSAGE_TOPIC) return;
  const key = `${line.payload.agent ? 'agent' : 'human'}:${line.payload.id}`;
  lines.delete(key);
  lines.set(key, { packet, sentAt: Date.now() });
  if (lines.size > MAX_REPLAY_LINES) lines.delete(lines.keys().next().value as string);
}
