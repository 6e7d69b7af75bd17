import { VISEMES, type Viseme } from '../../../../contract/graph/catalogue/visemes.js';
import { phonemesOf } from '../../../voice/index.js';
import type { NodeImplementation, RuntimeNode } from '../../runtime/graph-node.js';
import { isAudioPacket, type AudioFramePacket, type AudioPacket } from '../../runtime/stream-values.js';
import { LocalSpeechSocket } from '../local/local-speech-socket.js';
import { localServerUrl } from '../local/local-server.js';
import { holdUntilAborted } from '../utility/node-lifetime.js';
import { VisemeSchedule } from './viseme-schedule.js';

/** The engine's LocalViseme port, and how long it holds audio back for its server's visemes. */
const DEFAULT_PORT = 7004;
const SERVER_DELAY_MS = 250;

function isViseme(value: string): value is Viseme {
  return (VISEMES as readonly string[]).includes(value);
}

/** Audio without phonemes, as the engine does it: its lip-sync server's visemes, the audio passed on 250 ms later. */
function lipSyncServer(node: RuntimeNode, tell: (viseme: Viseme) => void) {
  const socket = new LocalSpeechSocket({
    url: localServerUrl(node, DEFAULT_PORT),
    mode: 'lipsync',
    logger: node.environment.logger,
    failed: (message) => node.log('error', message, 'port'),
    events: (event) => {
      if (event.type !== 'lipsync_viseme') return;
      if (isViseme(event.viseme)) tell(event.viseme);
      else {
        node.log('warning', `unknown viseme '${event.viseme}' from the lip-sync server`, 'viseme');
        tell('SILENCE');
      }
    },
  });
  const held = new Set<NodeJS.Timeout>();
  return {
    push(packet: AudioFramePacket): void {
      socket.push(packet.frame);
      const timer = setTimeout(() => {
        held.delete(timer);
        node.source('audio_src').push(packet);
      }, SERVER_DELAY_MS);
      held.add(timer);
    },
    flush(): void {
      for (const timer of held) clearTimeout(timer);
      held.clear();
    },
    close(): void {
      this.flush();
      socket.close();
    },
  };
}

/**
 * LocalViseme: visemes (the Oculus 15) in time with the audio passing from `audio` to `audio_src`. Speech of the
 * platform's offline voices carries its phonemes (the TTS node's frames): it passes at once and each phoneme's
 * viseme is told when its sound starts ({@link VisemeSchedule}). Audio of a source that never carried phonemes goes
 * to the engine's local lip-sync server at `port` (connected on first need) and is passed on 250 ms later, as the
 * engine does. A flush (barge-in) passes on at once and ends the visemes with `SILENCE`.
 */
export const localVisemeNode: NodeImplementation = async (node, signal) => {
  const tell = (viseme: Viseme) => node.source('viseme').push(viseme);
  const schedule = new VisemeSchedule(tell);
  const speaking = new Set<string>();
  let server: ReturnType<typeof lipSyncServer> | undefined;
  const unsubscribe = node.sink('audio').onValue((value) => {
    if (!isAudioPacket(value)) return;
    const packet: AudioPacket = value;
    if (packet.kind === 'runtime:audio-flush') {
      schedule.cancel();
      server?.flush();
      node.source('audio_src').push(packet);
      return;
    }
    const phonemes = phonemesOf(packet.frame);
    if (phonemes) speaking.add(packet.origin);
    if (speaking.has(packet.origin)) {
      node.source('audio_src').push(packet);
      schedule.frame(packet.frame, phonemes ?? []);
      return;
    }
    server ??= lipSyncServer(node, tell);
    server.push(packet);
  });
  await holdUntilAborted(signal, [unsubscribe, () => schedule.close(), () => server?.close()]);
};
