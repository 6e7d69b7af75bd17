import { parseDataPacket, type ToolCallMessage } from '../../contract/sdk.js';
import { CHAT_INPUT_TOPIC, CHAT_STREAM_TOPIC, LEGACY_CHAT_TOPIC, TOOL_CALL_TOPIC } from '../../contract/wire.js';
import type { AgentRoomConnection, IncomingTextStream, ReceivedData } from '../engines/media/index.js';
import { replayTranscripts } from './transcript-replay.js';

/** A typed turn's longest text (as `chat_input`'s `SDKSendChatMessageParams`). */
export const MAX_TYPED_CHARACTERS = 10_000;

/** What the human sends the agent besides their voice. */
export interface RoomInputHandlers {
  /** Whether input is taken now (not while stopping or after a terminal state). */
  live(): boolean;
  /** A typed message: a `chat_input` packet, a LiveKit chat text stream (`lk.chat`) or older chat packet (`lk-chat-topic`). */
  typed(text: string, via: typeof CHAT_INPUT_TOPIC | typeof CHAT_STREAM_TOPIC | typeof LEGACY_CHAT_TOPIC): void;
  /** A client tool call's acknowledgement or result (`tool_call` topic). */
  toolCall(message: ToolCallMessage): void;
  /** Input refused, said to the human. */
  refused(message: string): void;
}

/**
 * Reads the human's typed messages and tool call answers from the room: `chat_input` and `tool_call` data
 * packets, `lk.chat` text streams as LiveKit's components send them (longer than a typed turn may be: refused
 * unread), and the older `lk-chat-topic` packets. Others' packets are ignored. A human whose connection resumed is
 * answered here too: the transcript lines they may have missed are sent again (`transcript_resume`,
 * {@link replayTranscripts}). Returns the unsubscribe.
 *
 * @example
 * const stop = readRoomInput(connection, 'human-1', { live: () => !stopping, typed, toolCall, refused: sendError });
 */
export function readRoomInput(connection: AgentRoomConnection, humanIdentity: string, handlers: RoomInputHandlers): () => void {
  const data = (received: ReceivedData): void => {
    if (received.from !== humanIdentity || !handlers.live()) return;
    const packet = parseDataPacket(received.topic, new TextDecoder().decode(received.payload));
    if (packet?.topic === TOOL_CALL_TOPIC) handlers.toolCall(packet.payload);
    else if (packet?.topic === CHAT_INPUT_TOPIC) handlers.typed(packet.payload.text, CHAT_INPUT_TOPIC);
    // LiveKit's components send the older packet beside the `lk.chat` stream marked `ignoreLegacy`: one message.
    else if (packet?.topic === LEGACY_CHAT_TOPIC && !packet.payload.ignoreLegacy && packet.payload.message.trim() !== '') {
      handlers.typed(packet.payload.message.trim(), LEGACY_CHAT_TOPIC);
    }
  };
  const chatStream = async (stream: IncomingTextStream): Promise<void> => {
    if (stream.from !== humanIdentity) return;
    let text = '';
    for await (const chunk of stream) {
      text += chunk;
      if (text.length > MAX_TYPED_CHARACTERS) {
        handlers.refused(`A typed message may be at most ${MAX_TYPED_CHARACTERS} characters.`);
        return;
      }
    }
    if (text.trim() !== '' && handlers.live()) handlers.typed(text.trim(), CHAT_STREAM_TOPIC);
  };
  const unsubscribe = [
    replayTranscripts(connection, humanIdentity),
    connection.on('data', data),
    connection.onTextStream(CHAT_STREAM_TOPIC, (stream) => void chatStream(stream)),
  ];
  return () => {
    for (const stop of unsubscribe) stop();
  };
}
