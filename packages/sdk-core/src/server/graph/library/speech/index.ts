import type { NodeImplementation } from '../../runtime/graph-node.js';
import { multiParticipantSttNode } from './multi-participant/multi-participant-stt-node.js';
import { sileroVadNode } from './silero-vad-node.js';
import { sttNode } from './stt-node.js';
import { ttsNode } from './tts-node.js';

export const speechImplementations: Record<string, NodeImplementation> = {
  SileroVAD: sileroVadNode,
  STT: sttNode,
  MultiParticipantSTT: multiParticipantSttNode,
  TTS: ttsNode,
};
