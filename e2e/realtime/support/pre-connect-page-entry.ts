// Bundled with esbuild into a page built only on the unmodified livekit-client: on Start it turns the microphone on
// (with or without LiveKit's pre-connect buffer) while it connects, as LiveKit documents, and keeps the user's
// final transcriptions (`lk.transcription` text streams about their own microphone) for the tests to read.
import { Room } from 'livekit-client';

const finals: string[] = [];

/** Start: the microphone at once; the connection after `connectDelayMs` (a slow network, an agent not ready yet). */
async function start(url: string, token: string, preConnectBuffer: boolean, connectDelayMs: number): Promise<void> {
  // livekit-client 2.23 reads preConnectBuffer from the publish defaults (or the capture options), not the publish options.
  const room = new Room({ publishDefaults: { preConnectBuffer } });
  room.registerTextStreamHandler('lk.transcription', (reader, participant) => {
    if (participant.identity !== room.localParticipant.identity || reader.info.attributes?.['lk.transcription_final'] !== 'true') return;
    void reader.readAll().then((text) => finals.push(text));
  });
  const connect = new Promise((resolve) => setTimeout(resolve, connectDelayMs)).then(() => room.connect(url, token));
  await Promise.all([room.localParticipant.setMicrophoneEnabled(true), connect]);
}

Object.assign(window, { start, finals: () => [...finals] });
