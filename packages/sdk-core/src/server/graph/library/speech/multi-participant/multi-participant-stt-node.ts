import { TRIGGER } from '../../../../../contract/graph/pad-values.js';
import type { RemoteAudioTrack } from '../../../../engines/media/index.js';
import type { VoiceActivityDetector } from '../../../../engines/speech/index.js';
import { DEFAULT_TURN_DETECTION, HumanListener, loadListeningEngines, type ListeningEngines } from '../../../../voice/index.js';
import type { NodeImplementation, RuntimeNode } from '../../../runtime/graph-node.js';
import { StatelessSinkPad } from '../../../runtime/pads.js';
import { holdUntilAborted } from '../../utility/node-lifetime.js';
import { padAudioTrack } from '../pad-audio-track.js';
import { TurnFloor } from './turn-floor.js';

/** The engine's cooldown when the pad holds none. */
const DEFAULT_COOLDOWN_MS = 4000;

function cooldownOf(node: RuntimeNode): number {
  const value = node.value('cooldown_time_ms');
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : DEFAULT_COOLDOWN_MS;
}

/**
 * One participant's listener on `audio_{index}`: `is_speaking_{index}` and `speech_started` when they start, then
 * `is_speaking_{index}` false, their words on `transcription_{index}` and `speech_ended` when their turn ends.
 */
function listenTo(
  node: RuntimeNode,
  index: number,
  track: RemoteAudioTrack,
  engines: { vad: VoiceActivityDetector; stt: ListeningEngines['stt'] },
  floor: TurnFloor,
  signal: AbortSignal,
): Promise<void> {
  const speaking = node.propertySource(`is_speaking_${index}`);
  const listener = new HumanListener({
    ...engines,
    track,
    turnDetection: node.environment.engines.turnDetection ?? DEFAULT_TURN_DETECTION,
    logger: node.environment.logger,
    callbacks: {
      speechStarted: () => {
        floor.setSpeaking(index, true);
        speaking.push(true);
        node.source('speech_started').push(TRIGGER);
        return {
          interim: () => undefined,
          finished: (utterance) => {
            const text = utterance.text.trim();
            floor.setSpeaking(index, false);
            speaking.push(false);
            node.source(`transcription_${index}`).push(text);
            node.source('speech_ended').push(TRIGGER);
            if (text !== '') node.log('info', `${track.participant.identity}: ${text}`, `transcription_${index}`);
          },
        };
      },
      failed: (error) => node.log('error', `speech recognition failed: ${error.message}`, `audio_${index}`),
    },
  });
  signal.addEventListener('abort', () => listener.close(), { once: true });
  return listener.run();
}

/**
 * MultiParticipantSTT: several humans in one room, each on their own `audio_{i}` pad (`num_participants` of them,
 * each fed by a Publish node), each heard by their own listener of the voice layer (VAD, STT, end of turn as the
 * STT node's). Who said what: participant `i`'s words come on `transcription_{i}` when their turn ends (the empty
 * string for noise, as the engine), `is_speaking_{i}` follows them; `speech_started`/`speech_ended` fire for anyone.
 * `current_state`/`previous_state` say who has the floor (see {@link TurnFloor}): the AI may talk once nobody speaks
 * and `cooldown_time_ms` has passed since speech last started; `force_ai_talk` gives it the floor at once.
 */
export const multiParticipantSttNode: NodeImplementation = async (node, signal) => {
  const { speech } = node.environment.engines;
  const participants = node.numbered('audio_', StatelessSinkPad).map((pad) => Number(pad.id.slice('audio_'.length)));
  const current = node.propertySource('current_state');
  const previous = node.propertySource('previous_state');
  const floor = new TurnFloor(
    () => cooldownOf(node),
    (left, entered) => {
      previous.push(left);
      current.push(entered);
    },
  );
  const unsubscribe = node.sink('force_ai_talk').onValue(() => floor.forceAiTalk());
  signal.addEventListener('abort', () => (unsubscribe(), floor.close()), { once: true });
  const service = node.value('service');
  if (typeof service === 'string' && service !== '' && service !== 'platform') {
    node.log('info', `service '${service}' is not available here: the platform's STT engine transcribes`, 'service');
  }
  // Audio is captured from the start: what is said while the engines load is heard, not lost.
  const tracks = participants.map((index) => ({ index, track: padAudioTrack(node, `audio_${index}`, signal) }));
  const engines = await loadListeningEngines(speech, node.environment.logger);
  if (signal.aborted) return;
  const { vad } = engines;
  if (!vad) throw new Error('the voice activity detector cannot load: no speech input');
  if (!engines.stt) node.log('warning', `speech is detected but not transcribed: ${engines.sttUnavailableReason ?? 'no STT engine'}`);
  await Promise.all([...tracks.map(({ index, track }) => listenTo(node, index, track, { vad, stt: engines.stt }, floor, signal)), holdUntilAborted(signal)]);
};
