/**
 * A minimal LiveKit Agents worker, written only against `@livekit/agents` and `@livekit/rtc-node`: nothing
 * in it knows Palaver. It registers as `echo-agent`; each job joins its room, answers every typed turn
 * (`lk.chat`) with a final transcription (`lk.transcription`), honours Palaver's `palaver.speak` RPC, and
 * leaves after saying goodbye when told "bye".
 *
 *   LIVEKIT_URL=ws://127.0.0.1:8080 LIVEKIT_API_KEY=devkey LIVEKIT_API_SECRET=... pnpm --filter @palaver/example-livekit-agents-worker start
 */
import { fileURLToPath } from 'node:url';
import { cli, defineAgent, ServerOptions, type JobContext } from '@livekit/agents';
import type { Room } from '@livekit/rtc-node';

export const AGENT_NAME = 'echo-agent';

async function say(room: Room, text: string): Promise<void> {
  await room.localParticipant!.sendText(text, {
    topic: 'lk.transcription',
    attributes: { 'lk.transcription_final': 'true', 'lk.segment_id': `SG_${Date.now().toString(36)}` },
  });
}

export default defineAgent({
  entry: async (ctx: JobContext) => {
    const room = ctx.room;
    // Handlers first: a message typed the moment the agent appears is not lost.
    room.registerTextStreamHandler('lk.chat', (reader, from) => {
      void (async () => {
        const text = (await reader.readAll()).trim();
        const local = room.localParticipant!;
        await local.setAttributes({ 'lk.agent.state': 'thinking' });
        if (/\bbye\b/i.test(text)) {
          await say(room, `Goodbye, ${from.identity}!`);
          // Data goes over the data channel and the leave over the signalling socket: give the last words a
          // moment to reach the room before leaving it (on a busy machine the leave can overtake them).
          await new Promise((resolve) => setTimeout(resolve, 1000));
          ctx.shutdown('the human said bye');
          return;
        }
        await say(room, `You said: ${text}`);
        await local.setAttributes({ 'lk.agent.state': 'listening' });
      })();
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
  cli.runApp(new ServerOptions({ agent: fileURLToPath(import.meta.url), agentName: AGENT_NAME, host: '127.0.0.1' }));
}
