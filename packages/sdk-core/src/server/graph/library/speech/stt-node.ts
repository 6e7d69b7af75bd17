import { TRIGGER } from '../../../../contract/graph/pad-values.js';
import {
  DEFAULT_TURN_DETECTION,
  HumanListener,
  loadListeningEngines,
  parseTurnDetection,
  resolveTurnDetection,
  type TurnDetectionOptions,
} from '../../../voice/index.js';
import type { NodeImplementation, RuntimeNode } from '../../runtime/graph-node.js';
import { AudioClip, isAudioPacket } from '../../runtime/stream-values.js';
import { ClipRecorder, padAudioTrack } from './pad-audio-track.js';

const CLIP_RATE = 48_000;

/** The node's `turn_detection` over the server's (validated with the graph; an unusable value is logged and ignored). */
function turnDetectionOf(node: RuntimeNode): TurnDetectionOptions {
  const base = node.environment.engines.turnDetection ?? DEFAULT_TURN_DETECTION;
  const parsed = parseTurnDetection(node.value('turn_detection'));
  if (parsed.ok) return resolveTurnDetection(base, parsed.value);
  node.log('error', `${parsed.message}: the server's turn detection is used`, 'turn_detection');
  return base;
}

/**
 * STT: the voice pipeline's listener (VAD, STT, the built-in agent's turn taking) on the `audio` pad:
 * `speech_started` when speech begins, interim transcripts as they change, then `speech_ended`, the final
 * transcription (when not empty) and the utterance as a clip. With adaptive turn detection the words at a pause
 * decide the wait; with `preemptive` the run's LLM node is told the words at each pause to prepare its answer.
 * Every utterance opens a voice turn of the run (its metrics go to the room's `turn_metrics`).
 */
export const sttNode: NodeImplementation = async (node, signal) => {
  const { speech } = node.environment.engines;
  const { logger, voiceTurns } = node.environment;
  // Audio is captured from the start: what the human says while the engines load is heard, not lost.
  const track = padAudioTrack(node, 'audio', signal);
  const engines = await loadListeningEngines(speech, logger);
  if (signal.aborted) return;
  if (!engines.vad) throw new Error('the voice activity detector cannot load: no speech input');
  if (!engines.stt) node.log('warning', `speech is detected but not transcribed: ${engines.sttUnavailableReason ?? 'no STT engine'}`);
  const service = node.value('service');
  if (typeof service === 'string' && service !== '' && service !== 'platform') {
    node.log('info', `service '${service}' is not available here: the platform's STT engine transcribes`, 'service');
  }
  const clip = new ClipRecorder();
  node.sink('audio').onValue((value) => {
    if (isAudioPacket(value) && value.kind === 'runtime:audio') clip.push(value.frame);
  });
  const turnDetection = turnDetectionOf(node);
  const preemptive = turnDetection.mode === 'adaptive' && turnDetection.preemptive;
  const listener = new HumanListener({
    ...engines,
    vad: engines.vad,
    track,
    turnDetection,
    logger,
    callbacks: {
      speechStarted: () => {
        clip.start();
        node.source('speech_started').push(TRIGGER);
        return {
          interim: (text) => node.source('interim_transcription').push(text),
          ...(preemptive ? { pausing: (text: string) => voiceTurns.paused(text), paused: (pause: { text: string }) => voiceTurns.paused(pause.text) } : {}),
          resumed: () => voiceTurns.resumed(),
          finished: (utterance) => {
            const samples = clip.finish();
            const text = utterance.text.trim();
            if (text !== '') voiceTurns.heard(utterance);
            else voiceTurns.resumed();
            node.source('speech_ended').push(TRIGGER);
            node.source('speech_clip').push(new AudioClip(samples, CLIP_RATE, text === '' ? null : text));
            if (text !== '') node.source('final_transcription').push(text);
          },
        };
      },
      failed: (error) => node.log('error', `speech recognition failed: ${error.message}`),
    },
  });
  signal.addEventListener('abort', () => listener.close(), { once: true });
  await listener.run();
};
