/**
 * A minimal LiveKit Agents worker, written only against `@livekit/agents` and `@livekit/rtc-node` (no Palaver
 * package). It registers as `echo-agent`; each job joins its room, answers every typed turn (`lk.chat` text
 * streams, and the `chat_input` packets of Palaver's browser connector) with a final transcription
 * (`lk.transcription`, and the `message` packet Palaver's connector shows), honours Palaver's `palaver.speak`
 * RPC, and leaves after saying goodbye when told "bye".
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

export const AGENT_NAME = 'echo-agent';

let lines = 0;

/**
 * Shows a finished line of the conversation to the browser: as the `message` packet Palaver's connector
 * (`useVoiceAgent`) reads, `{id, agent, final, created_at, speaking_ended_at, text}`.
 */
async function show(room: Room, text: string, agent: boolean): Promise<string> {
  const id = `SG_${Date.now().toString(36)}_${(lines += 1)}`;
  const now = new Date().toISOString();
  const line = { id, agent, final: true, created_at: now, speaking_ended_at: now, text };
  await room.localParticipant!.publishData(new TextEncoder().encode(JSON.stringify(line)), { reliable: true, topic: 'message' });
  return id;
}

/** Says `text`: a final `lk.transcription` text stream, what LiveKit's clients read, and the same line for Palaver's. */
async function say(room: Room, text: string): Promise<void> {
  const id = await show(room, text, true);
  await room.localParticipant!.sendText(text, { topic: 'lk.transcription', attributes: { 'lk.transcription_final': 'true', 'lk.segment_id': id } });
}

export default defineAgent({
  entry: async (ctx: JobContext) => {
    const room = ctx.room;
    const answer = async (text: string, from: string) => {
      const local = room.localParticipant!;
      await local.setAttributes({ 'lk.agent.state': 'thinking' });
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
      void show(room, text.trim(), false).then(() => answer(text.trim(), participant.identity));
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
