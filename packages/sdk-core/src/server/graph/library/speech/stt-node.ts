import { TRIGGER } from '../../../../contract/graph/pad-values.js';
import { DEFAULT_TURN_DETECTION, HumanListener } from '../../../voice/listener/human-listener.js';
import { loadListeningEngines } from '../../../voice/listener/listening-engines.js';
import type { NodeImplementation } from '../../runtime/graph-node.js';
import { AudioClip, isAudioPacket } from '../../runtime/stream-values.js';
import { ClipRecorder, padAudioTrack } from './pad-audio-track.js';

const CLIP_RATE = 48_000;

/**
 * STT: the agent's listening pipeline (VAD, then a streaming STT session per utterance) on the `audio` pad:
 * `speech_started` when speech begins, interim transcripts as they change, then `speech_ended`, the
 * final transcription (when not empty) and the utterance as a clip.
 */
export const sttNode: NodeImplementation = async (node, signal) => {
  const { speech, logger } = { speech: node.environment.engines.speech, logger: node.environment.logger };
  // Audio is captured from the start: what the human says while the engines load is heard, not lost.
  const track = padAudioTrack(node, 'audio', signal);
  const { vad, stt, sttUnavailableReason } = await loadListeningEngines(speech, logger);
  if (signal.aborted) return;
  if (!vad) throw new Error('the voice activity detector cannot load: no speech input');
  if (!stt) node.log('warning', `speech is detected but not transcribed: ${sttUnavailableReason ?? 'no STT engine'}`);
  const service = node.value('service');
  if (typeof service === 'string' && service !== '' && service !== 'platform') {
    node.log('info', `service '${service}' is not available here: the platform's STT engine transcribes`, 'service');
  }
  const clip = new ClipRecorder();
  node.sink('audio').onValue((value) => {
    if (isAudioPacket(value) && value.kind === 'runtime:audio') clip.push(value.frame);
  });
  const listener = new HumanListener({
    track,
    vad,
    stt,
    turnDetection: DEFAULT_TURN_DETECTION,
    logger,
    callbacks: {
      speechStarted: () => {
        clip.start();
        node.source('speech_started').push(TRIGGER);
        return {
          interim: (text) => node.source('interim_transcription').push(text),
          finished: (utterance) => {
            const samples = clip.finish();
            node.source('speech_ended').push(TRIGGER);
            const text = utterance.text.trim();
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
