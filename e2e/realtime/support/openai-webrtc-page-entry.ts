// Bundled with esbuild into a page built only on OpenAI's own browser SDK: a RealtimeSession of @openai/agents-realtime
// over its WebRTC transport (the fake microphone as its track, the agent's track played by an audio element), pointed
// at the platform's /v1/realtime/calls. The page keeps the events of the data channel and the loudest level heard on
// the agent's track for the tests to read.
import { OpenAIRealtimeWebRTC, RealtimeAgent, RealtimeSession } from '@openai/agents-realtime';

const events: Array<{ type: string; [key: string]: unknown }> = [];
let loudest = 0;
let session: RealtimeSession | undefined;

/** Follows the level of the agent's track (RMS of 16-bit samples) with an analyser. */
function measure(stream: MediaStream): void {
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  analyser.fftSize = 2048;
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  setInterval(() => {
    analyser.getFloatTimeDomainData(samples);
    const rms = Math.sqrt(samples.reduce((total, sample) => total + sample * sample, 0) / samples.length) * 32_768;
    loudest = Math.max(loudest, rms);
  }, 20);
}

/** Connects a RealtimeSession over WebRTC to `callsUrl` with the ephemeral key `key`; answers the call id. */
async function start(callsUrl: string, key: string, model: string): Promise<string | undefined> {
  const audioElement = document.createElement('audio');
  audioElement.autoplay = true;
  document.body.append(audioElement);
  const transport = new OpenAIRealtimeWebRTC({
    baseUrl: callsUrl,
    audioElement,
    changePeerConnection: (peerConnection) => {
      peerConnection.addEventListener('track', (event) => measure(event.streams[0] ?? new MediaStream([event.track])));
      return peerConnection;
    },
  });
  transport.on('*', (event: { type: string }) => events.push(event));
  const agent = new RealtimeAgent({ name: 'Assistant', instructions: 'Be brief.' });
  session = new RealtimeSession(agent, {
    transport,
    model,
    config: { outputModalities: ['audio'], audio: { input: { transcription: { model: 'gpt-4o-mini-transcribe' } } } },
  });
  await session.connect({ apiKey: key });
  return transport.callId;
}

function say(text: string): void {
  session?.sendMessage(text);
}

function stop(): void {
  session?.close();
}

Object.assign(window, { start, say, stop, events: () => [...events], loudest: () => loudest });
