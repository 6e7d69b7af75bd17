import { pad, t, type NodeSpec } from '../node-spec.js';

/** A MultiParticipantSTT's floor states, as the open engine names them. */
export const MULTI_PARTICIPANT_STATES = ['WAITING_FOR_HUMAN', 'TALKING', 'COOLDOWN', 'AI_CAN_TALK'] as const;

/** Speech detection, recognition and synthesis on the platform's speech engines. */
export const speechNodes: NodeSpec[] = [
  {
    type: 'SileroVAD',
    description:
      "Voice activity detection on the platform's VAD (Silero, or the energy detector without onnxruntime): speech start/end triggers and the speech as a clip.",
    category: { primary: 'ai', secondary: 'audio', tags: ['vad', 'speech'] },
    pads: [
      pad.sink('audio', [t.audio()]),
      pad.source('audio_clip', [t.audioClip()]),
      pad.source('speech_started_trigger', [t.trigger()]),
      pad.source('speech_ended_trigger', [t.trigger()]),
      pad.source('continued_speech_trigger', [t.trigger()], { description: 'Speech resumed before the end-of-speech decision.' }),
      pad.propertySink('vad_threshold', [t.float({ minimum: 0, maximum: 1 })], 0.5),
      pad.propertySink('silence_duration_ms', [t.float({ minimum: 0, maximum: 3000 })], 500),
      pad.propertySink('speech_duration_ms', [t.float({ minimum: 0, maximum: 3000 })], 150),
      pad.propertySink('pre_speech_duration_ms', [t.float({ minimum: 0, maximum: 1000 })], 100),
    ],
  },
  {
    type: 'STT',
    description:
      "Speech to text on the platform's STT engine (pocketsphinx offline, or the configured vendor) with the built-in agent's turn taking: adaptive end of turn, answers prepared at pauses (by the OpenAICompatibleLLM node it feeds), turn metrics. Speech started/ended triggers, interim and final transcriptions, the utterance as a clip. `service` and `api_key` are kept for graphs from elsewhere; the platform's engine is used.",
    category: { primary: 'ai', secondary: 'audio', tags: ['stt', 'transcription'] },
    pads: [
      pad.propertySink('service', [t.enumOf()], 'platform'),
      pad.propertySink('api_key', [t.secret()], null),
      pad.propertySink('turn_detection', [t.object()], null, {
        description:
          "Palaver extension: how the end of the human's turn is detected, as a realtime session's `input.turn_detection` (`{ mode: 'adaptive' | 'fixed', silence_ms, min_wait_ms, max_wait_ms, preemptive }`); null: the server's defaults (adaptive, preemptive). Graphs without it need nothing.",
      }),
      pad.sink('audio', [t.audio()]),
      pad.source('speech_clip', [t.audioClip()]),
      pad.source('speech_started', [t.trigger()]),
      pad.source('speech_ended', [t.trigger()]),
      pad.source('interim_transcription', [t.string()], { description: 'The transcript so far, as the engine revises it.' }),
      pad.source('final_transcription', [t.string()]),
    ],
  },
  {
    type: 'TTS',
    description:
      "Text to speech with a platform voice (`voice_id`: a voice id, empty for the default voice), metered as `voice_synthesis_seconds` of the run's human. Speaks each text stream (or string) in turn; `cancel_trigger` stops at once and drops queued audio downstream.",
    category: { primary: 'ai', secondary: 'audio', tags: ['tts', 'speech'] },
    pads: [
      pad.propertySink('service', [t.enumOf()], 'platform'),
      pad.propertySink('api_key', [t.secret()], null),
      pad.propertySink('voice_id', [t.string()], ''),
      pad.sink('text', [t.textStream(), t.string()]),
      pad.source('audio', [t.audio()]),
      pad.sink('cancel_trigger', [t.trigger()]),
      pad.source('complete_transcription', [t.string()], { description: 'What was spoken of each text: all of it, or up to the interruption.' }),
    ],
  },
  {
    type: 'MultiParticipantSTT',
    description:
      "Several humans in one room, who said what: participant `i`'s audio on `audio_{i}` (each from its own Publish node), heard by its own listener of the platform's STT with the STT node's end of turn; their words on `transcription_{i}` when their turn ends, `is_speaking_{i}` while they speak, `speech_started`/`speech_ended` for anyone. `current_state` says who has the floor: `WAITING_FOR_HUMAN`, `TALKING` while anyone speaks, `COOLDOWN` once all are quiet, `AI_CAN_TALK` once nobody speaks and `cooldown_time_ms` passed since speech last started (one difference from the engine: a cooldown that ran out while someone spoke does not leave the floor stuck in `COOLDOWN`). `force_ai_talk` gives the AI the floor at once. `service` and `api_key` are kept for graphs from elsewhere: the platform's engine is used.",
    category: { primary: 'ai', secondary: 'audio', tags: ['stt', 'speech', 'multi-participant'] },
    pads: [
      pad.propertySource('current_state', [t.enumOf([...MULTI_PARTICIPANT_STATES])], 'WAITING_FOR_HUMAN'),
      pad.propertySource('previous_state', [t.enumOf([...MULTI_PARTICIPANT_STATES])], 'WAITING_FOR_HUMAN'),
      pad.propertySink('service', [t.enumOf()], 'platform'),
      pad.propertySink('api_key', [t.secret()], null),
      pad.propertySink('num_participants', [t.integer({ minimum: 1 })], 2),
      pad.propertySink('cooldown_time_ms', [t.integer({ minimum: 0 })], 4000),
      pad.sink('force_ai_talk', [t.trigger()]),
      pad.source('speech_started', [t.trigger()]),
      pad.source('speech_ended', [t.trigger()]),
    ],
    repeated: [
      {
        count: 'num_participants',
        min: 1,
        max: 16,
        pads: [
          pad.sink('audio_{i}', [t.audio()], { group: 'audio' }),
          pad.source('transcription_{i}', [t.string()], { group: 'transcription', description: "Participant i's words, when their turn ends." }),
          pad.propertySource('is_speaking_{i}', [t.boolean()], false, { group: 'is_speaking' }),
        ],
      },
    ],
  },
];
