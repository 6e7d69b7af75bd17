import type { Room, TextStreamReader } from 'livekit-client';
import type { SDKSessionTranscription } from '../contract/sdk.js';
import { StreamedTranscript, transcriptLineKey } from '../contract/streamed-transcript.js';
import { CHAT_STREAM_TOPIC, TRANSCRIPTION_STREAM_TOPIC } from '../contract/wire.js';

/**
 * The room's LiveKit transcript streams (`lk.transcription`, `lk.chat`) as transcript lines (decision 0123), for any
 * agent that speaks LiveKit's protocol (a LiveKit Agents worker): each version of a line goes to `show` as the stream
 * grows and once it ends. A line the agent also sends as a `message` packet (Palaver's built-in agent sends both, with
 * the segment id as the line id) is the packet's: its streams are skipped, so it shows once, as before.
 *
 * @example
 * const streams = new TranscriptStreams(room, (identity) => isAgent(identity), (line) => dispatch(line));
 * streams.sentAsPacket(packet.payload); // for every `message` packet of the agent
 */
export class TranscriptStreams {
  private readonly lines = new StreamedTranscript();
  private readonly packetLines = new Set<string>();

  constructor(
    room: Room,
    /** Whether a sender is an agent (its words are the agent's; anyone else's, the local human's included, a human's). */
    private readonly isAgent: (identity: string) => boolean,
    private readonly show: (line: SDKSessionTranscription) => void,
  ) {
    for (const topic of [TRANSCRIPTION_STREAM_TOPIC, CHAT_STREAM_TOPIC]) {
      room.registerTextStreamHandler(topic, (reader, sender) => void this.read(reader, sender.identity).catch(() => undefined));
    }
  }

  /** A line the agent sent as a `message` packet: its text streams are copies. */
  sentAsPacket(line: Pick<SDKSessionTranscription, 'id' | 'agent'>): void {
    this.packetLines.add(transcriptLineKey(line));
  }

  private async read(reader: TextStreamReader, sender: string): Promise<void> {
    const agent = this.isAgent(sender);
    let text = '';
    const next = (ended: boolean) => {
      const line = this.lines.update(reader.info, agent, text, ended);
      if (line.text && !this.packetLines.has(transcriptLineKey(line))) this.show(line);
    };
    for await (const chunk of reader) {
      text += chunk;
      next(false);
    }
    next(true);
  }
}
