import { playTone, type AgentRoomConnection, type AudioOutput, type ReceivedData, type MediaService } from '@palaver/sdk-core/testing';
import type { SDKAgentState, SDKSessionTranscription } from '@palaver/sdk-core';

const attributeState: Partial<Record<SDKAgentState, string>> = {
  warmup: 'initializing',
  listening: 'listening',
  thinking: 'thinking',
  speaking: 'speaking',
};

/**
 * An agent that speaks the real wire protocol (docs/WIRE-PROTOCOL.md) from a script: joins as
 * identity `agent` through the embedded AgentTransport, declares its state in metadata and the
 * `lk.agent.state` attribute, sends `message`/`error` packets and plays a tone on its audio track.
 */
export class ScriptedAgent {
  readonly received: ReceivedData[] = [];
  private output: AudioOutput | undefined;
  private readonly stopTone = new AbortController();
  private tone: Promise<void> | undefined;

  private constructor(readonly connection: AgentRoomConnection) {
    connection.on('data', (data) => this.received.push(data));
  }

  static async join(media: MediaService, room: string, state: SDKAgentState = 'warmup', remainingSeconds: number | null = null): Promise<ScriptedAgent> {
    const connection = await media.transport.join({
      room,
      identity: 'agent',
      metadata: JSON.stringify({ agent_state: state, remaining_seconds: remainingSeconds }),
      attributes: { 'lk.agent.state': attributeState[state] ?? 'listening' },
    });
    return new ScriptedAgent(connection);
  }

  async setState(state: SDKAgentState, remainingSeconds: number | null = null): Promise<void> {
    const attribute = attributeState[state];
    if (attribute) await this.connection.setAttributes({ 'lk.agent.state': attribute });
    await this.connection.setMetadata(JSON.stringify({ agent_state: state, remaining_seconds: remainingSeconds }));
  }

  async say(transcription: SDKSessionTranscription): Promise<void> {
    await this.connection.sendData(JSON.stringify(transcription), { topic: 'message', reliable: true });
  }

  async reportError(message: string): Promise<void> {
    await this.connection.sendData(JSON.stringify({ message }), { topic: 'error', reliable: true });
  }

  /** Publishes the agent's audio track and plays a continuous tone on it. */
  async playTone(frequency: number): Promise<void> {
    this.output = await this.connection.publishAudio({ sampleRate: 48_000 });
    this.tone = playTone(this.output, frequency, 60_000, this.stopTone.signal);
  }

  /** Parsed packets received on a topic. */
  packets(topic: string): Array<{ from: string | undefined; payload: unknown }> {
    return this.received
      .filter((data) => data.topic === topic)
      .map((data) => ({ from: data.from, payload: JSON.parse(new TextDecoder().decode(data.payload)) as unknown }));
  }

  async leave(): Promise<void> {
    this.stopTone.abort();
    await this.tone;
    await this.connection.leave();
  }
}
