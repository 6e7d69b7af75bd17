import type { Logger } from 'pino';
import type { AgentRoomConnection, AgentTransport, RemoteAudioTrack } from '../engines/media/index.js';
import type { AgentSessionSpec } from '../kernel/ports/agent-session-host.js';
import type { SessionRecordings } from '../kernel/ports/session-recordings.js';
import { observedRecording, SessionRecorder, storeRecording } from '../voice/index.js';

/**
 * The agent's room connection, recording the conversation when the session asked for it (`general.recording: true`,
 * decision 0112): the audio it publishes is the agent's side, the human's tracks the other; once it has left the
 * room the recording is stored. Without the option (or without a store) it is the connection itself: nothing is
 * recorded.
 *
 * @example
 * const connection = recordedConnection(await transport.join(options), spec, recordings, logger);
 */
export function recordedConnection(
  connection: AgentRoomConnection,
  spec: AgentSessionSpec,
  recordings: SessionRecordings | undefined,
  logger: Pick<Logger, 'error'>,
): AgentRoomConnection {
  if (spec.session.config.general.recording !== true || !recordings) return connection;
  const recorder = new SessionRecorder();
  const tapped = (track: RemoteAudioTrack) => (track.participant.identity === spec.humanIdentity ? recorder.tapTrack(track) : track);
  const save = () => storeRecording(recorder, { id: spec.session.id, project: spec.principal.project }, recordings, logger);
  const overrides: Partial<AgentRoomConnection> = {
    publishAudio: async (options) => recorder.tapOutput(await connection.publishAudio(options)),
    audioTracks: () => connection.audioTracks().map(tapped),
    on: (event, listener) =>
      event === 'audioTrack'
        ? connection.on('audioTrack', (track) => (listener as (track: RemoteAudioTrack) => void)(tapped(track)))
        : connection.on(event, listener),
    leave: async () => {
      try {
        await connection.leave();
      } finally {
        await save();
      }
    },
  };
  return new Proxy(connection, {
    get: (target, key): unknown => (key in overrides ? overrides[key as keyof AgentRoomConnection] : bound(target, key)),
  });
}

/**
 * The transport a session's agent joins its room with: its connection is {@link recordedConnection} (the transport
 * itself when the session records nothing).
 *
 * @example
 * const agent = new VoiceAgent(spec, events, { ...dependencies, transport: recordedTransport(transport, spec, recordings, logger) });
 */
export function recordedTransport(
  transport: AgentTransport,
  spec: AgentSessionSpec,
  recordings: SessionRecordings | undefined,
  logger: Pick<Logger, 'error'>,
): AgentTransport {
  if (spec.session.config.general.recording !== true || !recordings) return transport;
  const join: AgentTransport['join'] = async (options) => recordedConnection(await transport.join(options), spec, recordings, logger);
  return new Proxy(transport, { get: (target, key): unknown => (key === 'join' ? join : bound(target, key)) });
}

/**
 * The transport a LiveKit Agents worker's session watches its room with (decision 0122): its hidden observer's
 * connection is an {@link observedRecording} of the human's and the worker's agent's tracks when the session asked
 * for `general.recording: true`; the transport itself otherwise.
 *
 * @example
 * const session = new WorkerAgentSession(spec, events, worker, { ...dependencies, transport: observerRecordingTransport(transport, spec, recordings, logger) });
 */
export function observerRecordingTransport(
  transport: AgentTransport,
  spec: AgentSessionSpec,
  recordings: SessionRecordings | undefined,
  logger: Pick<Logger, 'error'>,
): AgentTransport {
  if (spec.session.config.general.recording !== true || !recordings) return transport;
  const target = { id: spec.session.id, project: spec.principal.project, humanIdentity: spec.humanIdentity };
  const join: AgentTransport['join'] = async (options) => observedRecording(await transport.join(options), target, recordings, logger);
  return new Proxy(transport, { get: (subject, key): unknown => (key === 'join' ? join : bound(subject, key)) });
}

/** A property of `target`, its methods bound to it (proxies forward everything they do not change). */
function bound(target: object, key: string | symbol): unknown {
  const value: unknown = Reflect.get(target, key, target);
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}
