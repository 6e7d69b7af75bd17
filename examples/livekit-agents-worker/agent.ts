/**
 * A minimal LiveKit Agents worker, written only against `@livekit/agents` and `@livekit/rtc-node` (no Palaver
 * package). It registers as `echo-agent`; each job joins its room, answers every typed turn (`lk.chat` text
 * streams, and the `chat_input` packets of Palaver's browser connector) with a transcription the way LiveKit Agents
 * send the agent's speech (`lk.transcription`, one delta stream per segment, closed when said; a typed turn of the
 * connector is shown as the human's line), honours Palaver's `palaver.speak` RPC, and leaves after saying goodbye
 * when told "bye". Palaver's connector and LiveKit's clients read the same streams. Told "replay", it plays the human's last words back on its
 * own audio track (`voice-replay.ts`): the agent's voice of Palaver's recording test.
 *
 *   LIVEKIT_URL=ws://127.0.0.1:8080 LIVEKIT_API_KEY=devkey LIVEKIT_API_SECRET=... pnpm --filter @palaver/example-livekit-agents-worker start
 *
 * Its health check (`GET /` answers 200 once registered, `GET /worker` its info) listens on PALAVER_WORKER_PORT
 * (default 8081, the port `@livekit/agents` uses under `start`; 0 picks a free one) at PALAVER_WORKER_HOST
 * (default 127.0.0.1).
 */
import { fileURLToPath } from 'node:url';
import { cli, defineAgent, ServerOptions, type JobContext } from '@livekit/agents';
import { RoomEvent, type Room } from '@livekit/rtc-node';
import { healthCheckAddress } from './health-check-address.js';
import { VoiceReplay } from './voice-replay.js';

export const AGENT_NAME = 'echo-agent';

let segments = 0;
const segmentId = () => `SG_${Date.now().toString(36)}_${(segments += 1)}`;

/** Says `text` as LiveKit Agents do: one `lk.transcription` stream for the segment, its words as deltas, closed when said. */
async function say(room: Room, text: string): Promise<void> {
  const writer = await room.localParticipant!.streamText({
    topic: 'lk.transcription',
    attributes: { 'lk.transcription_final': 'false', 'lk.segment_id': segmentId() },
  });
  for (const word of text.split(/(?=\s)/)) await writer.write(word);
  await writer.close();
}

/** Shows a typed turn as `from`'s line, as LiveKit Agents publish a human's transcription: sent as theirs, final. */
async function showTyped(room: Room, text: string, from: string): Promise<void> {
  const writer = await room.localParticipant!.streamText({
    topic: 'lk.transcription',
    senderIdentity: from,
    attributes: { 'lk.transcription_final': 'true', 'lk.segment_id': segmentId() },
  });
  await writer.write(text);
  await writer.close();
}

export default defineAgent({
  entry: async (ctx: JobContext) => {
    const room = ctx.room;
    const replay = new VoiceReplay(room);
    const answer = async (text: string, from: string) => {
      const local = room.localParticipant!;
      await local.setAttributes({ 'lk.agent.state': 'thinking' });
      if (/^replay$/i.test(text)) {
        await local.setAttributes({ 'lk.agent.state': 'speaking' });
        const ms = await replay.play(from);
        await say(room, `I played back ${Math.round(ms)} ms of what you said.`);
        await local.setAttributes({ 'lk.agent.state': 'listening' });
        return;
      }
      if (/\bbye\b/i.test(text)) {
        await say(room, `Goodbye, ${from}!`);
        // Data goes over the data channel and the leave over the signalling socket: give the last words a
        // moment to reach the room before leaving it (on a busy machine the leave can overtake them).
        await new Promise((resolve) => setTimeout(resolve, 1000));
        ctx.shutdown('the human said bye');
        return;
      }
      await say(room, `You said: ${text}`);
      await local.setAttributes({ 'lk.agent.state': 'listening' });
    };
    // Handlers first: a message typed the moment the agent appears is not lost.
    room.registerTextStreamHandler('lk.chat', (reader, from) => {
      void reader.readAll().then((text) => answer(text.trim(), from.identity));
    });
    // Palaver's browser connector (useVoiceAgent's sendChatMessage) sends a typed turn as a `chat_input` packet, {text}.
    room.on(RoomEvent.DataReceived, (payload, participant, _kind, topic) => {
      if (topic !== 'chat_input' || !participant) return;
      const { text } = JSON.parse(new TextDecoder().decode(payload)) as { text?: unknown };
      if (typeof text !== 'string' || text.trim() === '') return;
      // The typed line joins the conversation the browser shows, then the answer.
      void showTyped(room, text.trim(), participant.identity).then(() => answer(text.trim(), participant.identity));
    });
    await ctx.connect();
    const local = room.localParticipant!;
    local.registerRpcMethod('palaver.speak', async ({ payload }) => {
      await say(room, payload);
      return 'ok';
    });
    // Greet someone who is there to read it: a room created before its human joins (an app run's, a dispatch's)
    // would otherwise get the greeting while nobody listens.
    await ctx.waitForParticipant();
    await say(room, ctx.job.metadata ? `Hello! My job says: ${ctx.job.metadata}` : 'Hello! Type something and I will echo it.');
    await local.setAttributes({ 'lk.agent.state': 'listening' });
  },
});

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // The health check (`GET /`: 200 once registered): PALAVER_WORKER_PORT (8081; 0 picks a free one), PALAVER_WORKER_HOST.
  const address = await healthCheckAddress().catch((error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
  cli.runApp(new ServerOptions({ agent: fileURLToPath(import.meta.url), agentName: AGENT_NAME, ...address }));
}
