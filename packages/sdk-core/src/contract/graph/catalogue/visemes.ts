import { pad, t, type NodeSpec } from '../node-spec.js';

/**
 * The visemes of viseme pads, as the open engine names them: the Oculus (Meta) Lipsync set of 15 in its order, so
 * a viseme's index is its Oculus id (0 `SILENCE` = Oculus `sil`, 1 `PP` ... 14 `OU` = `ou`). Decision 0110.
 */
export const VISEMES = ['SILENCE', 'PP', 'FF', 'TH', 'DD', 'KK', 'CH', 'SS', 'NN', 'RR', 'AA', 'E', 'IH', 'OH', 'OU'] as const;
export type Viseme = (typeof VISEMES)[number];

/** Lip sync for avatars: visemes of the agent's speech, and a node to watch them. */
export const visemeNodes: NodeSpec[] = [
  {
    type: 'LocalViseme',
    description:
      "Visemes (the Oculus set of 15) for an avatar's lips, in time with the audio passing through (`audio` -> `audio_src`). Speech of the platform's offline voices (eSpeak-NG, Flite: a TTS node upstream) carries its phonemes and their times: each is mapped to its viseme and pushed on `viseme` when its sound plays, `SILENCE` after the last; that audio passes at once. Other audio goes, as in the open engine, to its local lip-sync server (`services/gabber-stt`) at `port` and is passed on 250 ms later; its visemes come as the server finds them.",
    category: { primary: 'ai', secondary: 'local', tags: ['viseme', 'lipsync', 'avatar'] },
    pads: [
      pad.sink('audio', [t.audio()]),
      pad.propertySink('port', [t.integer({ minimum: 1, maximum: 65535 })], 7004, {
        description: "The lip-sync server's port on the platform's local inference host, for audio without phonemes.",
      }),
      pad.source('audio_src', [t.audio()]),
      pad.source('viseme', [t.viseme()]),
    ],
  },
  {
    type: 'VisemeDebug',
    description: 'Logs each viseme it receives on the run log (`Viseme Frame: AA`), to watch lip sync.',
    category: { primary: 'core', secondary: 'debug', tags: ['viseme'] },
    pads: [pad.sink('viseme', [t.viseme()])],
  },
];
