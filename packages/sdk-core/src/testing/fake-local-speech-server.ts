import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

/** What the fake saw of one session. */
export interface FakeLocalSpeechSession {
  id: string;
  start: { sample_rate: number; stt_enabled: boolean; lipsync_enabled: boolean };
  /** PCM16 samples received. */
  samples: number;
  /** Each audio message's size in bytes. */
  chunkBytes: number[];
  ended: boolean;
}

export interface FakeLocalSpeechServer {
  readonly port: number;
  readonly sessions: FakeLocalSpeechSession[];
  close(): Promise<void>;
}

const LOUD_RMS = 500;
/** Quiet 100 ms pieces after speech that end an utterance. */
const QUIET_PIECES_TO_END = 3;

function rms(samples: Int16Array): number {
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / (samples.length || 1));
}

/**
 * A local speech server speaking the open engine's `gabber-stt` WebSocket protocol, for LocalSTT and LocalViseme
 * tests: speech is audio louder than RMS 500 in a 100 ms piece. In a transcription session it answers
 * `speaking_started` at the first loud piece and, after three quiet pieces, `final_transcription` with the next of
 * `transcripts` and the utterance's sample range. In a lip-sync session every piece gets a `lipsync_viseme`: `AA`
 * when loud, `SILENCE` when quiet.
 */
export async function startFakeLocalSpeechServer(transcripts: readonly string[]): Promise<FakeLocalSpeechServer> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  const sessions: FakeLocalSpeechSession[] = [];
  let said = 0;
  server.on('connection', (socket) => {
    let session: FakeLocalSpeechSession | undefined;
    let speech: { trans: number; start: number; quiet: number } | undefined;
    let trans = 0;
    const answer = (payload: Record<string, unknown>) => socket.send(JSON.stringify({ session_id: session?.id ?? '', payload }));
    socket.on('message', (data) => {
      const message = JSON.parse((data as Buffer).toString('utf8')) as {
        session_id: string;
        payload: { type: string; b64_data?: string } & FakeLocalSpeechSession['start'];
      };
      const { payload } = message;
      if (payload.type === 'start_session') {
        session = {
          id: message.session_id,
          start: { sample_rate: payload.sample_rate, stt_enabled: payload.stt_enabled, lipsync_enabled: payload.lipsync_enabled },
          samples: 0,
          chunkBytes: [],
          ended: false,
        };
        sessions.push(session);
        return;
      }
      if (!session) return answer({ type: 'error', message: 'no session' });
      if (payload.type === 'end_session') {
        session.ended = true;
        return;
      }
      const bytes = Buffer.from(payload.b64_data ?? '', 'base64');
      const pcm = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
      const start = session.samples;
      session.samples += pcm.length;
      session.chunkBytes.push(bytes.byteLength);
      const loud = rms(pcm) >= LOUD_RMS;
      if (session.start.lipsync_enabled) {
        answer({ type: 'lipsync_viseme', viseme: loud ? 'AA' : 'SILENCE', probability: 0.9, start_sample: start, end_sample: session.samples });
      }
      if (!session.start.stt_enabled) return;
      if (loud && !speech) {
        speech = { trans: trans++, start, quiet: 0 };
        answer({ type: 'speaking_started', trans_id: speech.trans, start_sample: start });
      } else if (speech) {
        speech.quiet = loud ? 0 : speech.quiet + 1;
        if (speech.quiet >= QUIET_PIECES_TO_END) {
          const transcription = transcripts[said++ % transcripts.length] ?? '';
          answer({ type: 'final_transcription', trans_id: speech.trans, transcription, start_sample: speech.start, end_sample: session.samples });
          speech = undefined;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    sessions,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
