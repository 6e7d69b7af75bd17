import { RoomAgentDispatch, RoomConfiguration } from '@livekit/protocol';
import { Room, RoomEvent } from '@livekit/rtc-node';
import { createClient, type PalaverClient } from '@palaver/sdk-core';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { AccessToken, AgentDispatchClient } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AGENT_NAME } from './agent.js';
import { eventually, startWorker, type WorkerProcess } from './worker-process.js';

const API_KEY = 'worker-test-key';
const API_SECRET = 'worker-test-secret-0123456789-0123456789';

/** A LiveKit client in the room that records the transcriptions it receives. */
async function joinAsHuman(url: string, token: string): Promise<{ room: Room; heard: Array<{ from: string; text: string }> }> {
  const room = new Room();
  const heard: Array<{ from: string; text: string }> = [];
  room.registerTextStreamHandler('lk.transcription', (reader, from) => {
    void reader.readAll().then((text) => heard.push({ from: from.identity, text }));
  });
  await room.connect(url, token, { autoSubscribe: true, dynacast: false });
  return { room, heard };
}

/**
 * An unmodified `@livekit/agents` worker (agent.ts, which knows nothing of Palaver) registers on the embedded
 * endpoint's `/agent` socket and is the agent of a Palaver realtime session, of an AgentDispatchService
 * dispatch, and of a room whose join token names it.
 */
describe('a LiveKit Agents worker on the embedded endpoint', () => {
  let server: PalaverServer;
  let client: PalaverClient;
  let url: string;
  let mediaUrl: string;
  let worker: WorkerProcess;

  beforeAll(async () => {
    server = await createServer({ env: { LIVEKIT_API_KEY: API_KEY, LIVEKIT_API_SECRET: API_SECRET }, config: { logLevel: 'silent' } });
    url = await server.listen(0, '127.0.0.1');
    mediaUrl = url.replace(/^http/, 'ws');
    client = createClient({ baseUrl: url, apiKey: server.apiKey, maxRetries: 0 });
    const workers = server.services.media.endpoint!.agentWorkers;
    worker = await startWorker(mediaUrl, { key: API_KEY, secret: API_SECRET }, () => workers.hasWorker(AGENT_NAME));
  }, 60_000);

  afterAll(async () => {
    await worker?.stop();
    await server?.close();
  });

  it("is a realtime session's agent: greets with the job metadata, answers typed turns and speak, leaves on bye, and the session ends with its messages saved", async () => {
    const { session, connection_details } = await client.realtime.start({
      config: {
        general: { agent: { type: 'livekit_worker', agent_name: AGENT_NAME, metadata: 'from the test' } },
        input: {},
        output: {},
        generative: { llm: 'builtin-offline' },
      },
    });
    expect(session.state).toBe('in_progress');
    expect(session.config.general.agent).toEqual({ type: 'livekit_worker', agent_name: AGENT_NAME, metadata: 'from the test' });
    const { room, heard } = await joinAsHuman(connection_details.url, connection_details.token);
    try {
      const agent = await eventually(() => [...room.remoteParticipants.values()].find((participant) => participant.identity.startsWith('agent-')), 'the agent');
      expect(agent.attributes['lk.agent.name']).toBe(AGENT_NAME);
      await eventually(() => agent.attributes['lk.agent.state'] === 'listening', 'the agent to listen');
      expect([...room.remoteParticipants.keys()]).not.toContain('palaver-observer');

      await room.localParticipant!.sendText('hello there', { topic: 'lk.chat' });
      await eventually(
        () => heard.some((line) => line.text === 'You said: hello there' && line.from === agent.identity),
        `the answer (heard: ${JSON.stringify(heard)})`,
      );
      await client.realtime.speak(session.id, { text: 'A word from the platform.' });
      await eventually(() => heard.some((line) => line.text === 'A word from the platform.'), 'the spoken text');

      await room.localParticipant!.sendText('bye', { topic: 'lk.chat' });
      // The goodbye is read on this side while the agent leaves: wait for it, not only for the session's end.
      await eventually(() => heard.some((line) => line.text === `Goodbye, ${room.localParticipant!.identity}!`), 'the goodbye');
      const ended = await eventually(async () => {
        const current = await client.realtime.retrieve(session.id);
        return current.state === 'ended' ? current : undefined;
      }, 'the session to end');
      expect(ended.ended_at).toBeDefined();

      const messages = [];
      for await (const message of client.contexts.listMessages(session.config.generative.context.id)) {
        const text = typeof message.content === 'string' ? message.content : message.content.map((part) => ('text' in part ? part.text : '')).join('');
        messages.push({ role: message.role, content: text });
      }
      expect(messages).toEqual(
        expect.arrayContaining([
          { role: 'assistant', content: 'Hello! My job says: from the test' },
          { role: 'user', content: 'hello there' },
          { role: 'assistant', content: 'You said: hello there' },
          { role: 'user', content: 'bye' },
        ]),
      );
    } finally {
      await room.disconnect();
    }
  });

  it('serves its health check on PALAVER_WORKER_PORT (0: a free port, not the 8081 `@livekit/agents` would take)', async () => {
    const port = Number(await eventually(() => /listening on port (\d+)/.exec(worker.log())?.[1], `the health check to listen (log: ${worker.log()})`));
    expect(port).not.toBe(8081);
    const health = await fetch(`http://127.0.0.1:${port}/`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('OK');
    expect(await (await fetch(`http://127.0.0.1:${port}/worker`)).json()).toMatchObject({ agent_name: AGENT_NAME });
  });

  it("starts with the README's curl body, which names only the worker (input, output and generative take their defaults)", async () => {
    const response = await fetch(`${url}/v1/realtime/start`, {
      method: 'POST',
      headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json' },
      body: '{"config": {"general": {"agent": {"type": "livekit_worker", "agent_name": "echo-agent"}}}}',
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const { session, connection_details } = (await response.json()) as Awaited<ReturnType<PalaverClient['realtime']['start']>>;
    expect(session.state).toBe('in_progress');
    expect(session.config.generative.llm.id).toBe('builtin-offline');
    const { room, heard } = await joinAsHuman(connection_details.url, connection_details.token);
    try {
      await eventually(() => heard.some((line) => line.text === 'Hello! Type something and I will echo it.'), `the greeting (heard: ${JSON.stringify(heard)})`);
      // Typed turns of Palaver's browser connector (`chat_input` packets) are answered too.
      const agent = [...room.remoteParticipants.values()].find((participant) => participant.identity.startsWith('agent-'))!;
      await room.localParticipant!.publishData(new TextEncoder().encode(JSON.stringify({ text: 'from the browser' })), {
        reliable: true,
        topic: 'chat_input',
        destination_identities: [agent.identity],
      });
      await eventually(() => heard.some((line) => line.text === 'You said: from the browser'), `the answer (heard: ${JSON.stringify(heard)})`);
      expect((await client.realtime.end(session.id)).state).toBe('ended');
    } finally {
      await room.disconnect();
    }
  });

  it("answers the human's transcript_resume for the worker's session: the lines the platform observed, final, oldest first, to them only", async () => {
    const { session, connection_details } = await client.realtime.start({
      config: { general: { agent: { type: 'livekit_worker', agent_name: AGENT_NAME } }, input: {}, output: {}, generative: { llm: 'builtin-offline' } },
    });
    const { room, heard } = await joinAsHuman(connection_details.url, connection_details.token);
    const bystanderToken = new AccessToken(API_KEY, API_SECRET, { identity: 'bystander' });
    bystanderToken.addGrant({ roomJoin: true, room: session.id });
    const bystander = await joinAsHuman(mediaUrl, await bystanderToken.toJwt());
    const replayed =
      (into: Array<{ text: string; agent: boolean; final: boolean; created_at: string }>) =>
      (payload: Uint8Array, _from: unknown, _kind: unknown, topic?: string) => {
        if (topic === 'message') into.push(JSON.parse(new TextDecoder().decode(payload)) as (typeof into)[number]);
      };
    const lines: Array<{ text: string; agent: boolean; final: boolean; created_at: string }> = [];
    const overheard: typeof lines = [];
    room.on(RoomEvent.DataReceived, replayed(lines));
    bystander.room.on(RoomEvent.DataReceived, replayed(overheard));
    try {
      await eventually(() => heard.some((line) => line.text === 'Hello! Type something and I will echo it.'), 'the greeting');
      await client.realtime.speak(session.id, { text: 'A word from the platform.' });
      await eventually(() => heard.some((line) => line.text === 'A word from the platform.'), 'the spoken text');
      // The agent says nothing on `message`: what comes back is the platform's observation of its text streams.
      expect(lines).toEqual([]);
      await room.localParticipant!.publishData(new TextEncoder().encode(JSON.stringify({ after: null })), {
        reliable: true,
        topic: 'transcript_resume',
        destination_identities: ['palaver-observer'],
      });
      await eventually(() => lines.length >= 2 || undefined, `the replay (got ${JSON.stringify(lines)})`);
      expect(lines.map(({ text, agent, final }) => ({ text, agent, final }))).toEqual([
        { text: 'Hello! Type something and I will echo it.', agent: true, final: true },
        { text: 'A word from the platform.', agent: true, final: true },
      ]);
      expect(Date.parse(lines[0]!.created_at)).toBeLessThanOrEqual(Date.parse(lines[1]!.created_at));
      // Asking from the second line's time gives that line only; the bystander's request is not answered, nor is it sent the replay.
      await room.localParticipant!.publishData(new TextEncoder().encode(JSON.stringify({ after: lines[1]!.created_at })), {
        reliable: true,
        topic: 'transcript_resume',
        destination_identities: ['palaver-observer'],
      });
      await eventually(() => lines.length >= 3 || undefined, 'the second replay');
      await bystander.room.localParticipant!.publishData(new TextEncoder().encode(JSON.stringify({ after: null })), {
        reliable: true,
        topic: 'transcript_resume',
        destination_identities: ['palaver-observer'],
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(lines.slice(2).map((line) => line.text)).toEqual(['A word from the platform.']);
      expect(overheard).toEqual([]);
      expect((await client.realtime.end(session.id)).state).toBe('ended');
    } finally {
      await bystander.room.disconnect();
      await room.disconnect();
    }
  });

  it('ending the session through the API takes the agent out of the room', async () => {
    const { session, connection_details } = await client.realtime.start({
      config: { general: { agent: { type: 'livekit_worker', agent_name: AGENT_NAME } }, input: {}, output: {}, generative: { llm: 'builtin-offline' } },
    });
    const { room } = await joinAsHuman(connection_details.url, connection_details.token);
    try {
      const agent = await eventually(() => [...room.remoteParticipants.values()].find((participant) => participant.identity.startsWith('agent-')), 'the agent');
      const left = new Promise<void>((resolve) =>
        room.on(RoomEvent.ParticipantDisconnected, (participant) => participant.identity === agent.identity && resolve()),
      );
      const ended = await client.realtime.end(session.id);
      expect(ended.state).toBe('ended');
      await left;
    } finally {
      await room.disconnect();
    }
  });

  it("ends the session at its time limit and takes the worker's agent out", async () => {
    const { session, connection_details } = await client.realtime.start({
      config: {
        general: { time_limit_s: 2, agent: { type: 'livekit_worker', agent_name: AGENT_NAME } },
        input: {},
        output: {},
        generative: { llm: 'builtin-offline' },
      },
    });
    const { room } = await joinAsHuman(connection_details.url, connection_details.token);
    try {
      const agent = await eventually(() => [...room.remoteParticipants.values()].find((participant) => participant.identity.startsWith('agent-')), 'the agent');
      const left = new Promise<void>((resolve) =>
        room.on(RoomEvent.ParticipantDisconnected, (participant) => participant.identity === agent.identity && resolve()),
      );
      const ended = await eventually(
        async () => {
          const current = await client.realtime.retrieve(session.id);
          return current.state === 'ended' ? current : undefined;
        },
        'the time limit to end the session',
        10_000,
      );
      expect(ended.state).toBe('ended');
      await left;
    } finally {
      await room.disconnect();
    }
  });

  it('is dispatched by the AgentDispatchService and by a join token, and deleting the dispatch ends its job', async () => {
    const dispatches = new AgentDispatchClient(url, API_KEY, API_SECRET);
    const dispatch = await dispatches.createDispatch('dispatched-room', AGENT_NAME, { metadata: 'dispatched' });
    expect(dispatch.agentName).toBe(AGENT_NAME);
    const token = new AccessToken(API_KEY, API_SECRET, { identity: 'visitor' });
    token.addGrant({ roomJoin: true, room: 'dispatched-room' });
    const { room, heard } = await joinAsHuman(mediaUrl, await token.toJwt());
    try {
      await eventually(() => heard.some((line) => line.text === 'Hello! My job says: dispatched'), 'the greeting');
      const [listed] = await dispatches.listDispatch('dispatched-room');
      const job = listed!.state!.jobs[0]!;
      expect(job.state?.participantIdentity).toMatch(/^agent-/);
      const left = new Promise<void>((resolve) =>
        room.on(RoomEvent.ParticipantDisconnected, (participant) => participant.identity === job.state!.participantIdentity && resolve()),
      );
      await dispatches.deleteDispatch(dispatch.id, 'dispatched-room');
      await left;
      expect(await dispatches.listDispatch('dispatched-room')).toEqual([]);
    } finally {
      await room.disconnect();
    }

    const configured = new AccessToken(API_KEY, API_SECRET, { identity: 'guest' });
    configured.addGrant({ roomJoin: true, room: 'configured-room' });
    configured.roomConfig = new RoomConfiguration({ agents: [new RoomAgentDispatch({ agentName: AGENT_NAME, metadata: 'from the token' })] });
    const second = await joinAsHuman(mediaUrl, await configured.toJwt());
    try {
      await eventually(() => second.heard.some((line) => line.text === 'Hello! My job says: from the token'), 'the greeting of the token-dispatched agent');
    } finally {
      await second.room.disconnect();
    }
  });

  it('is the agent of a session on a Palaver that uses a LiveKit deployment (dispatch through its AgentDispatchService)', async () => {
    // This Palaver's media is "a LiveKit deployment": the first server's endpoint, where the worker is registered.
    const scaled = await createServer({
      env: { LIVEKIT_URL: mediaUrl, LIVEKIT_API_KEY: API_KEY, LIVEKIT_API_SECRET: API_SECRET },
      config: { logLevel: 'silent' },
    });
    try {
      const scaledClient = createClient({ baseUrl: await scaled.listen(0, '127.0.0.1'), apiKey: scaled.apiKey, maxRetries: 0 });
      const { session, connection_details } = await scaledClient.realtime.start({
        config: { general: { agent: { type: 'livekit_worker', agent_name: AGENT_NAME } }, input: {}, output: {}, generative: { llm: 'builtin-offline' } },
      });
      expect(connection_details.url).toBe(mediaUrl);
      const { room, heard } = await joinAsHuman(connection_details.url, connection_details.token);
      try {
        await eventually(
          () => [...room.remoteParticipants.values()].some((participant) => participant.attributes['lk.agent.state'] === 'listening'),
          'the agent to listen',
        );
        await room.localParticipant!.sendText('over the deployment', { topic: 'lk.chat' });
        await eventually(() => heard.some((line) => line.text === 'You said: over the deployment'), 'the answer');
        expect((await scaledClient.realtime.end(session.id)).state).toBe('ended');
      } finally {
        await room.disconnect();
      }
    } finally {
      await scaled.close();
    }
  });

  it("joins an app run's room next to the graph", async () => {
    const { app_run, connection_details } = await client.appRuns.createFromGraph({
      graph: { nodes: [], portals: [] },
      livekit_agents: [{ agent_name: AGENT_NAME, metadata: 'app run' }],
    });
    const { room, heard } = await joinAsHuman(connection_details.url, connection_details.token);
    try {
      await eventually(() => heard.some((line) => line.text === 'Hello! My job says: app run'), 'the greeting in the run');
      expect(app_run.id).toBeDefined();
    } finally {
      await room.disconnect();
    }
    const refused = await client.appRuns
      .createFromGraph({ graph: { nodes: [], portals: [] }, livekit_agents: [{ agent_name: 'nobody-runs-this' }] })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 503 });
  });

  it('refuses a worker without the agent grant, and a session naming a worker nobody runs', async () => {
    const token = new AccessToken(API_KEY, API_SECRET, { identity: 'not-a-worker' });
    token.addGrant({ roomJoin: true, room: 'x' });
    const status = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`${mediaUrl}/agent`, { headers: { authorization: `Bearer ${'bad'}` } });
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('open', () => resolve(101));
    });
    expect(status).toBe(401);
    const jwt = await token.toJwt();
    const noAgentGrant = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`${mediaUrl}/agent`, { headers: { authorization: `Bearer ${jwt}` } });
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('open', () => resolve(101));
    });
    expect(noAgentGrant).toBe(401);

    const refused = await client.realtime
      .start({
        config: {
          general: { agent: { type: 'livekit_worker', agent_name: 'nobody-runs-this' } },
          input: {},
          output: {},
          generative: { llm: 'builtin-offline' },
        },
      })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 503 });
    expect(String((refused as Error).message)).toContain("no LiveKit Agents worker named 'nobody-runs-this'");
    const invalid = await client.realtime
      .start({ config: { general: { agent: { type: 'livekit_worker', agent_name: '' } }, input: {}, output: {}, generative: { llm: 'builtin-offline' } } })
      .catch((error: unknown) => error);
    expect(invalid).toMatchObject({ status: 400 });
  });
});
