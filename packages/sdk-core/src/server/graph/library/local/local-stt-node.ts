import { TRIGGER } from '../../../../contract/graph/pad-values.js';
import type { NodeImplementation } from '../../runtime/graph-node.js';
import { AudioClip, isAudioPacket } from '../../runtime/stream-values.js';
import { holdUntilAborted } from '../utility/node-lifetime.js';
import { LOCAL_SPEECH_SAMPLE_RATE } from './local-speech-protocol.js';
import { LocalSpeechSocket } from './local-speech-socket.js';
import { localServerUrl } from './local-server.js';

/** The engine's LocalSTT port. */
const DEFAULT_PORT = 7004;

/**
 * LocalSTT: speech to text by the engine's local speech server (`services/gabber-stt`: its own VAD, end of turn
 * and recogniser) at the operator's local host and the node's `port`, spoken to over its WebSocket protocol. The
 * server decides the turns: `speech_started` and `is_speaking` when it hears speech start, then the final
 * transcription, the utterance as a clip (16 kHz), `is_speaking` false and `speech_ended`.
 */
export const localSttNode: NodeImplementation = async (node, signal) => {
  const url = localServerUrl(node, DEFAULT_PORT);
  const speaking = node.propertySource('is_speaking');
  let open = false;
  const socket = new LocalSpeechSocket({
    url,
    mode: 'stt',
    logger: node.environment.logger,
    failed: (message) => node.log('error', message, 'port'),
    events: (event) => {
      if (event.type === 'speaking_started') {
        open = true;
        speaking.push(true);
        node.source('speech_started').push(TRIGGER);
      } else if (event.type === 'final_transcription') {
        if (!open) return;
        open = false;
        node.source('final_transcription').push(event.transcription);
        node.source('speech_clip').push(new AudioClip(socket.sent(event.start_sample, event.end_sample), LOCAL_SPEECH_SAMPLE_RATE, event.transcription));
        speaking.push(false);
        node.source('speech_ended').push(TRIGGER);
      }
    },
  });
  const unsubscribe = node.sink('audio').onValue((value) => {
    if (isAudioPacket(value) && value.kind === 'runtime:audio') socket.push(value.frame);
  });
  await holdUntilAborted(signal, [unsubscribe, () => socket.close()]);
};
