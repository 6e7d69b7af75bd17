import type { Logger } from 'pino';
import type { AgentRoomConnection, RemoteAudioTrack, RoomParticipant } from '../../engines/media/index.js';
import type { SessionRecordings } from '../../kernel/ports/session-recordings.js';
import { SessionRecorder, type RecordedSideName } from './session-recorder.js';

/** What a recording is kept as: the session's or the app run's id, its project, and whose voice goes on the left. */
export interface RecordingTarget {
  /** The realtime session's or the app run's id (the room's name). */
  id: string;
  project: string;
  /** The human who started it: their tracks are the left channel, as are those of any participant that is no agent. */
  humanIdentity: string;
}

/** The side a participant's audio is recorded on: agents (a worker's, an app run's graph) right, humans left. */
function sideOf(participant: RoomParticipant, target: RecordingTarget): RecordedSideName {
  if (participant.identity === target.humanIdentity) return 'human';
  return participant.kind === 'agent' ? 'agent' : 'human';
}

/**
 * A hidden observer's room connection that records the conversation it hears (decision 0122): every audio track it
 * is subscribed to (on the embedded endpoint the room's Opus RTP decoded in process, on a LiveKit deployment the
 * tracks `@livekit/rtc-node` subscribed to) goes on the human's or the agent's channel of one
 * {@link SessionRecorder}. Leaving the room stores the file with `recordings`. The observer must read no track
 * itself: the recording is their only reader.
 *
 * @example
 * const observer = observedRecording(await transport.join({ room, identity: 'palaver-observer', hidden: true }), target, recordings, logger);
 * await observer.leave(); // the recording is stored
 */
export function observedRecording(
  connection: AgentRoomConnection,
  target: RecordingTarget,
  recordings: SessionRecordings,
  logger: Pick<Logger, 'error'>,
): AgentRoomConnection {
  const recorder = new SessionRecorder();
  const recorded = new Set<string>();
  const record = (track: RemoteAudioTrack) => {
    if (recorded.has(track.trackSid)) return;
    recorded.add(track.trackSid);
    recorder.record(track, sideOf(track.participant, target)).catch((error: unknown) => logger.error({ err: error }, 'recording a track failed'));
  };
  for (const track of connection.audioTracks()) record(track);
  const unsubscribe = [connection.on('audioTrack', record), connection.on('disconnected', () => void save())];
  let saved: Promise<void> | undefined;
  // Once: when the observer leaves, or when it was disconnected (the room closed under it).
  const save = (): Promise<void> =>
    (saved ??= (async () => {
      for (const stop of unsubscribe) stop();
      await storeRecording(recorder, target, recordings, logger);
    })());
  const leave = async () => {
    try {
      await connection.leave();
    } finally {
      await save();
    }
  };
  return new Proxy(connection, {
    get: (subject, key): unknown => {
      if (key === 'leave') return leave;
      const value: unknown = Reflect.get(subject, key, subject);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(subject) : value;
    },
  });
}

/** Finishes `recorder` and stores its file as `target`'s recording; a failed save is logged, not thrown. */
export async function storeRecording(
  recorder: SessionRecorder,
  target: Pick<RecordingTarget, 'id' | 'project'>,
  recordings: SessionRecordings,
  logger: Pick<Logger, 'error'>,
): Promise<void> {
  const { wav, channels, sampleRate, durationMs } = recorder.finish();
  await recordings
    .save({ sessionId: target.id, project: target.project, wav, channels, sampleRate, durationMs })
    .catch((error: unknown) => logger.error({ err: error }, 'saving the recording failed'));
}
