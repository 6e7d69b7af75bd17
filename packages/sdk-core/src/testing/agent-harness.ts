import type { ContextMessageCreateParams } from '../contract/contexts.js';
import { RealtimeSession, type RealtimeSessionConfig } from '../contract/realtime.js';
import {
  parseAgentMetadata,
  parseDataPacket,
  type AgentTurnMetrics,
  type LegacyChatMessage,
  type SDKAgentState,
  type SDKSessionTranscription,
} from '../contract/sdk.js';
import {
  AGENT_IDENTITY,
  AGENT_STATE_ATTRIBUTE,
  CHAT_INPUT_TOPIC,
  ERROR_TOPIC,
  MESSAGE_TOPIC,
  TRANSCRIPTION_STREAM_TOPIC,
  TURN_METRICS_TOPIC,
  LEGACY_CHAT_TOPIC,
} from '../contract/wire.js';
import type { AgentSessionEvents, AgentSessionHost, AgentSessionSpec, AgentStopReason } from '../server/kernel/ports/agent-session-host.js';
import { createVoiceAgentHost, type VoiceAgentHostDependencies } from '../server/agent/voice-agent-host.js';
import { createLogger } from '../server/kernel/logger.js';
import type { AgentRoomConnection, AgentTransport, AudioOutput, RemoteAudioTrack } from '../server/engines/media/index.js';
import { eventually } from './media-test-support.js';
import type { Principal } from '../server/kernel/principal.js';
import { collectSynthesis, joinArrays, type Speech } from '../server/engines/speech/index.js';
import type { TestPlatform } from './test-platform.js';

/** A voice agent host wired to a test server's services as the platform wires its own, silent, with `overrides`. */
export function agentHostFor(test: TestPlatform, overrides: Partial<VoiceAgentHostDependencies> = {}): AgentSessionHost {
  const { services, config } = test.server;
  return createVoiceAgentHost({
    transport: services.media.transport,
    speech: services.speech,
    chat: services.chat,
    voices: services.voiceSynthesis,
    toolAddressPolicy: { allowLoopback: config.llm.allowLoopback, allowPrivateNetworks: config.llm.allowPrivateNetworks },
    logger: createLogger('silent'),
    ...overrides,
  });
}

/** What the session service would receive from the agent. */
export class RecordedEvents implements AgentSessionEvents {
  readonly messages: ContextMessageCreateParams[] = [];
  readonly stops: Array<{ reason: AgentStopReason; detail: string | undefined }> = [];

  async messageCommitted(message: ContextMessageCreateParams): Promise<void> {
    this.messages.push(message);
  }

  async stopped(reason: AgentStopReason, detail?: string): Promise<void> {
    this.stops.push({ reason, detail });
  }
}

let sessionCount = 0;

/** A session as the session service would hand it to the host: builtin-offline, a fresh context. */
export async function sessionSpec(
  test: TestPlatform,
  humanIdentity: string,
  overrides: {
    general?: Partial<RealtimeSessionConfig['general']>;
    input?: Partial<RealtimeSessionConfig['input']>;
    output?: Partial<RealtimeSessionConfig['output']>;
    generative?: Partial<RealtimeSessionConfig['generative']>;
  } = {},
): Promise<AgentSessionSpec> {
  const project = test.server.project;
  const llm = await test.client.llms.retrieve('builtin-offline');
  const id = `session_agent_test_${Date.now().toString(36)}_${sessionCount++}`;
  const session = RealtimeSession.parse({
    id,
    state: 'in_progress',
    created_at: new Date().toISOString(),
    project,
    simulated: false,
    data: [],
    human: humanIdentity,
    config: {
      general: { time_limit_s: null, save_messages: true, ...overrides.general },
      input: { interruptable: true, parallel_listening: false, ...overrides.input },
      output: { stream_transcript: true, speech_synthesis_enabled: true, ...overrides.output },
      generative: {
        llm,
        context: { id: `context_${id}`, created_at: new Date().toISOString(), project, latest_messages: [] },
        tool_definitions: [],
        ...overrides.generative,
      },
    },
  });
  const principal: Principal = { project, kind: 'key', human: humanIdentity, credentialId: 'test' };
  return { session, principal, humanIdentity };
}

/** Where speech is in synthesized PCM: the first and the last sample louder than its noise floor. */
export function speechBounds(pcm: Int16Array): { first: number; last: number } {
  let first = 0;
  while (first < pcm.length && Math.abs(pcm[first]!) < 300) first += 1;
  let last = pcm.length - 1;
  while (last > 0 && Math.abs(pcm[last]!) < 300) last -= 1;
  return { first, last };
}

/** Flite speech of `text` (16 kHz), as the human's microphone would carry it, with where its speech starts and ends. */
export async function fliteSpeech(
  speech: Speech,
  text: string,
  voice = 'slt',
): Promise<{ pcm: Int16Array; sampleRate: number; speechStartMs: number; speechEndMs: number }> {
  const { pcm, sampleRate } = await collectSynthesis(speech.tts.synthesize({ voice: { service: 'flite', voice }, text }));
  const { first, last } = speechBounds(pcm);
  return { pcm, sampleRate, speechStartMs: (first / sampleRate) * 1000, speechEndMs: (last / sampleRate) * 1000 };
}

/** Root mean square of PCM16 samples. */
export function rms(samples: Int16Array): number {
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / (samples.length || 1));
}

interface HeardFrame {
  at: number;
  rms: number;
  samples: Int16Array;
}

/** Agent audio louder than this (PCM16 RMS) is speech, not silence or codec noise. */
export const AUDIBLE_RMS = 200;

/**
 * The human in the room, joined through the embedded transport: publishes a microphone, and records
 * everything the agent shows (metadata and attribute states, transcriptions, text streams, errors, audio).
 */
export class HumanParticipant {
  readonly states: SDKAgentState[] = [];
  readonly attributeStates: string[] = [];
  readonly remainingSeconds: Array<number | null> = [];
  /** Every `message` packet, in order. */
  readonly messages: SDKSessionTranscription[] = [];
  /** Every `turn_metrics` packet (the agent's timings of each turn), in order. */
  readonly turnMetrics: AgentTurnMetrics[] = [];
  /** Every LiveKit older chat packet (`lk-chat-topic`) received, in order. */
  readonly legacyChat: LegacyChatMessage[] = [];
  readonly textStreams: Array<{ attributes: Record<string, string>; text: string; from: string }> = [];
  readonly errors: string[] = [];
  readonly heard: HeardFrame[] = [];
  agentLeft = false;
  private agentTrack: RemoteAudioTrack | undefined;

  private constructor(
    readonly connection: AgentRoomConnection,
    readonly microphone: AudioOutput,
    readonly sampleRate: number,
  ) {}

  /** `trackName` names the microphone's track: `<publish node>:audio` feeds that Publish node of an app run. */
  static async join(transport: AgentTransport, room: string, identity: string, sampleRate = 16_000, trackName = 'microphone'): Promise<HumanParticipant> {
    await transport.ensureRoom({ room, metadata: JSON.stringify({ session: room }) });
    const connection = await transport.join({ room, identity, name: identity });
    const microphone = await connection.publishAudio({ name: trackName, sampleRate });
    const human = new HumanParticipant(connection, microphone, sampleRate);
    human.watch();
    return human;
  }

  private watch(): void {
    const agentSeen = (participant: { identity: string; metadata: string; attributes: Record<string, string> }) => {
      if (participant.identity !== AGENT_IDENTITY) return;
      const metadata = parseAgentMetadata(participant.metadata);
      if (metadata && this.states.at(-1) !== metadata.agent_state) this.states.push(metadata.agent_state);
      if (metadata && this.remainingSeconds.at(-1) !== metadata.remaining_seconds) this.remainingSeconds.push(metadata.remaining_seconds);
      const attribute = participant.attributes[AGENT_STATE_ATTRIBUTE];
      if (attribute && this.attributeStates.at(-1) !== attribute) this.attributeStates.push(attribute);
    };
    for (const participant of this.connection.participants()) agentSeen(participant);
    this.connection.on('participantJoined', agentSeen);
    this.connection.on('participantUpdated', agentSeen);
    this.connection.on('participantLeft', (participant) => {
      if (participant.identity === AGENT_IDENTITY) this.agentLeft = true;
    });
    this.connection.on('data', (data) => {
      const packet = parseDataPacket(data.topic, new TextDecoder().decode(data.payload));
      if (packet?.topic === MESSAGE_TOPIC) this.messages.push(packet.payload);
      if (packet?.topic === ERROR_TOPIC) this.errors.push(packet.payload.message);
      if (packet?.topic === TURN_METRICS_TOPIC) this.turnMetrics.push(packet.payload);
      if (packet?.topic === LEGACY_CHAT_TOPIC) this.legacyChat.push(packet.payload);
    });
    this.connection.onTextStream(TRANSCRIPTION_STREAM_TOPIC, (stream) => {
      void stream.readAll().then((text) => this.textStreams.push({ attributes: stream.attributes, text, from: stream.from }));
    });
    const listen = (track: RemoteAudioTrack) => {
      if (track.participant.identity !== AGENT_IDENTITY || this.agentTrack) return;
      this.agentTrack = track;
      void (async () => {
        for await (const frame of track.frames()) this.heard.push({ at: performance.now(), rms: rms(frame.samples), samples: frame.samples });
      })();
    };
    for (const track of this.connection.audioTracks()) listen(track);
    this.connection.on('audioTrack', listen);
  }

  /**
   * Speaks `pcm` into the microphone, followed by `silenceMs` of silence (a microphone keeps sending).
   * Resolves with when the speech ended, once it has all been sent.
   */
  async say(speech: { pcm: Int16Array; speechEndMs: number }, silenceMs = 1200): Promise<{ speechStartedAt: number; speechEndedAt: number }> {
    const speechStartedAt = performance.now();
    const writing = this.microphone.write({ samples: speech.pcm, sampleRate: this.sampleRate, channels: 1 });
    const silence = new Int16Array(Math.round((this.sampleRate * silenceMs) / 1000));
    await writing;
    await this.microphone.write({ samples: silence, sampleRate: this.sampleRate, channels: 1 });
    await this.microphone.drained();
    return { speechStartedAt, speechEndedAt: speechStartedAt + speech.speechEndMs };
  }

  async type(text: string): Promise<void> {
    await this.connection.sendData(JSON.stringify({ text }), { topic: CHAT_INPUT_TOPIC });
  }

  /** The latest version of each transcription, in order of first appearance. */
  transcriptions(agent: boolean): SDKSessionTranscription[] {
    const latest = new Map<string, SDKSessionTranscription>();
    for (const message of this.messages) if (message.agent === agent) latest.set(message.id, message);
    return [...latest.values()];
  }

  finalTranscriptions(agent: boolean): SDKSessionTranscription[] {
    return this.transcriptions(agent).filter((transcription) => transcription.final);
  }

  /** Waits for the agent to be in `state` (by its metadata). */
  async waitForState(state: SDKAgentState, timeoutMs = 20_000): Promise<void> {
    await eventually(() => {
      const current = this.states.at(-1);
      if (current !== state) throw new Error(`the agent is ${current ?? 'in no state yet'}, not ${state}`);
    }, timeoutMs);
  }

  /** First agent frame with audible sound at or after `since` (performance.now scale). */
  firstAudibleAfter(since: number): HeardFrame | undefined {
    return this.heard.find((frame) => frame.at >= since && frame.rms > AUDIBLE_RMS);
  }

  /**
   * When the agent's voice stopped after being interrupted at `since`: its last audible frame before its first
   * quiet stretch (`quietMs`) from `since` on, so its later answer is not counted; when it was already quiet,
   * its last audible frame before `since`.
   */
  lastAudibleBeforeQuiet(since: number, quietMs = 300): HeardFrame | undefined {
    const loud = this.heard.filter((frame) => frame.at > since - 500 && frame.rms > AUDIBLE_RMS);
    return (
      loud.find((frame, index) => frame.at >= since && (loud[index + 1]?.at ?? Infinity) - frame.at > quietMs) ??
      loud.filter((frame) => frame.at < since).at(-1)
    );
  }

  /** Last agent frame with audible sound. */
  lastAudible(): HeardFrame | undefined {
    return this.heard.findLast((frame) => frame.rms > AUDIBLE_RMS);
  }

  /** All agent audio heard between two instants, joined (48 kHz). */
  audioBetween(from: number, to: number): Int16Array {
    return joinArrays(
      this.heard.filter((frame) => frame.at >= from && frame.at <= to).map((frame) => frame.samples),
      (length) => new Int16Array(length),
    );
  }

  async leave(): Promise<void> {
    await this.microphone.close().catch(() => undefined);
    await this.connection.leave();
  }
}

/** The offline model's answer to `heard`. */
export function offlineAnswer(heard: string): string {
  return `You said: "${heard.replace(/\s+/g, ' ').trim()}". I am the Palaver offline test model, so I can only repeat what I hear.`;
}
