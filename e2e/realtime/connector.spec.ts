import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { createClient } from '@palaver/sdk-core';
import type { MediaService } from '@palaver/sdk-core/testing';
import { analyseTrack, nextAudioTrack } from '../media/support/agent-audio.js';
import { AGENT_TONE_HZ, MIC_TONE_HZ, chromiumAvailable, eventually, expect, test } from './support/connector-fixture.js';
import { ScriptedAgent } from './support/scripted-agent.js';

test.skip(!chromiumAvailable(), 'Chromium is not installed');

async function sessionRoom(media: MediaService): Promise<string> {
  const room = `rs_${randomUUID().slice(0, 8)}`;
  await media.transport.ensureRoom({ room, metadata: JSON.stringify({ session: room }) });
  return room;
}

async function joinPage(
  page: Page,
  media: MediaService,
  room: string,
  identity: string,
  options: { agentTimeoutMs?: number; microphone?: boolean; remainingSecondsWarningAt?: number } = {},
) {
  const token = await media.createJoinToken({ room, identity });
  return page.evaluate(([url, jwt, settings]) => window.connector.connect(url, jwt, settings), [media.clientUrl(), token, options] as const);
}

const snapshot = (page: Page) => page.evaluate(() => window.connector.snapshot());
const history = (page: Page) => page.evaluate(() => window.connector.history());

test('the connector follows a scripted agent: states, transcripts, chat, audio both ways, disconnect', async ({ palaver, newPage }) => {
  const room = await sessionRoom(palaver.media);
  const page = await newPage();
  const joined = await joinPage(page, palaver.media, room, 'human_connector');
  expect(joined).toMatchObject({
    ok: true,
    snapshot: { status: 'waiting_for_agent', connectionState: 'waiting_for_agent', sessionId: room, agentState: null },
  });

  // The agent joins warming up, publishes its voice, then listens.
  const agent = await ScriptedAgent.join(palaver.media, room, 'warmup', 60);
  await eventually(async () =>
    expect(await snapshot(page)).toMatchObject({ status: 'connected', connectionState: 'connected', agentState: 'warmup', remainingSeconds: 60 }),
  );
  await agent.playTone(AGENT_TONE_HZ);
  await agent.setState('listening', 59);
  await eventually(async () => expect(await snapshot(page)).toMatchObject({ agentState: 'listening', remainingSeconds: 59 }));

  // The microphone was published on join: the agent hears the fake microphone's tone.
  const microphone = await nextAudioTrack(agent.connection, 'human_connector');
  const analysed = await analyseTrack(microphone, [MIC_TONE_HZ, AGENT_TONE_HZ, 700, 1500, 2500]);
  expect(analysed.frequency).toBe(MIC_TONE_HZ);
  expect((await snapshot(page)).microphone).toEqual({ wanted: true, enabled: true });

  // The agent's audio is attached to a playing element: its tone is what the page hears.
  await eventually(async () => expect((await snapshot(page)).agentAudio).toBe(true));
  expect(await page.evaluate(() => window.connector.audioElements())).toEqual([{ paused: false, muted: false, liveTracks: 1 }]);
  const heard = await page.evaluate((frequency) => window.connector.measureAgentTone(frequency, 1500), AGENT_TONE_HZ);
  expect(Math.abs(heard.peakFrequency - AGENT_TONE_HZ)).toBeLessThan(30);
  expect(heard.toneDb - heard.floorDb).toBeGreaterThan(20);
  const level = await page.evaluate(() => window.connector.agentLevel(800));
  console.log(`agent level: volume ${level.volume.toFixed(3)}, bands ${level.bands.map((band) => band.toFixed(2)).join(' ')}`);
  expect(level.volume).toBeGreaterThan(0.01);
  expect(Math.max(...level.bands)).toBeGreaterThan(0.2);

  // A typed turn reaches the agent as a chat_input packet from the human.
  await page.evaluate(() => window.connector.sendChat('What time is it?'));
  await eventually(() => expect(agent.packets('chat_input')).toEqual([{ from: 'human_connector', payload: { text: 'What time is it?' } }]));

  // The agent thinks, then speaks; its utterance grows under one id and is upserted, not duplicated.
  const base = Date.parse('2025-01-01T10:00:00.000Z');
  const at = (seconds: number) => new Date(base + seconds * 1000).toISOString();
  await agent.setState('thinking', 58);
  await agent.say({ id: 'utt_human_1', agent: false, final: true, created_at: at(1), speaking_ended_at: at(2), text: 'What time is it?' });
  await agent.setState('speaking', 57);
  await agent.say({ id: 'utt_agent_1', agent: true, final: false, created_at: at(3), speaking_ended_at: null, text: 'It is' });
  await agent.say({ id: 'utt_agent_1', agent: true, final: true, created_at: at(3), speaking_ended_at: at(5), text: 'It is noon.' });
  // Arrives last, happened first: ordered by created_at.
  await agent.say({ id: 'utt_human_0', agent: false, final: true, created_at: at(0), speaking_ended_at: at(1), text: 'Hello?' });
  await agent.setState('listening', 56);
  await eventually(async () =>
    expect((await snapshot(page)).transcriptions).toEqual([
      { id: 'utt_human_0', agent: false, final: true, text: 'Hello?', created_at: at(0), speaking_ended_at: at(1) },
      { id: 'utt_human_1', agent: false, final: true, text: 'What time is it?', created_at: at(1), speaking_ended_at: at(2) },
      { id: 'utt_agent_1', agent: true, final: true, text: 'It is noon.', created_at: at(3), speaking_ended_at: at(5) },
    ]),
  );
  await eventually(async () => expect((await snapshot(page)).agentState).toBe('listening'));

  // An `error` packet: an AgentError, still connected.
  await agent.reportError('the LLM is unavailable');
  await eventually(async () => expect((await snapshot(page)).error).toEqual({ name: 'AgentError', message: 'the LLM is unavailable' }));
  expect((await snapshot(page)).status).toBe('connected');

  // Muting the microphone.
  await page.evaluate(() => window.connector.setMicrophone(false));
  expect((await snapshot(page)).microphone).toEqual({ wanted: false, enabled: false });

  const recorded = await history(page);
  expect(recorded.agentStates).toEqual(['warmup', 'listening', 'thinking', 'speaking', 'listening']);
  expect(recorded.remainingSeconds).toEqual([60, 59, 58, 57, 56]);
  expect(recorded.transcriptionEvents.map((event) => event.text)).toEqual(['What time is it?', 'It is', 'It is noon.', 'Hello?']);
  expect(recorded.errors).toEqual([{ name: 'AgentError', message: 'the LLM is unavailable' }]);

  // Disconnect: not_connected at once, the transcript kept, the audio element gone, the agent sees the leave.
  const after = await page.evaluate(() => window.connector.disconnect());
  expect(after).toMatchObject({ status: 'not_connected', connectionState: 'not_connected', ended: 'client', agentState: null, agentAudio: false });
  expect(after.transcriptions).toHaveLength(3);
  expect(await page.evaluate(() => window.connector.audioElements())).toEqual([]);
  const final = await history(page);
  expect(final.statuses).toEqual(['connecting', 'waiting_for_agent', 'connected', 'not_connected']);
  expect(final.connectionStates).toEqual(['connecting', 'waiting_for_agent', 'connected', 'not_connected']);
  expect(final.ended).toEqual(['client']);
  await eventually(() => expect(agent.connection.participants()).toEqual([]));
  await agent.leave();
});

test("time almost up and the agent's speech muted: one typed warning at the threshold; a silenced agent still heard in text", async ({ palaver, newPage }) => {
  const room = await sessionRoom(palaver.media);
  const agent = await ScriptedAgent.join(palaver.media, room, 'listening', 90);
  const page = await newPage();
  const joined = await joinPage(page, palaver.media, room, 'human_warning', { microphone: false, remainingSecondsWarningAt: 80 });
  expect(joined).toMatchObject({ ok: true, snapshot: { status: 'connected', remainingSeconds: 90, remainingSecondsWarning: false } });
  await agent.playTone(AGENT_TONE_HZ);
  await agent.setState('listening', 81);
  await eventually(async () => expect((await snapshot(page)).remainingSeconds).toBe(81));
  expect((await history(page)).warnings).toEqual([]);
  await agent.setState('speaking', 80);
  await eventually(async () => expect(await snapshot(page)).toMatchObject({ remainingSeconds: 80, remainingSecondsWarning: true }));
  await agent.setState('listening', 79);
  await eventually(async () => expect((await snapshot(page)).remainingSeconds).toBe(79));
  expect((await history(page)).warnings).toEqual([80]);

  // Silenced: the element playing the agent is muted (still attached and playing), and its words still arrive.
  await eventually(async () => expect(await page.evaluate(() => window.connector.audioElements())).toEqual([{ paused: false, muted: false, liveTracks: 1 }]));
  await page.evaluate(() => window.connector.setAgentSpeechMuted(true));
  expect(await page.evaluate(() => window.connector.audioElements())).toEqual([{ paused: false, muted: true, liveTracks: 1 }]);
  const now = new Date().toISOString();
  await agent.say({ id: 'utt_quiet', agent: true, final: true, created_at: now, speaking_ended_at: now, text: 'Read me instead.' });
  await eventually(async () => expect((await snapshot(page)).transcriptions.map((line) => line.text)).toEqual(['Read me instead.']));
  expect((await snapshot(page)).agentSpeechMuted).toBe(true);
  await page.evaluate(() => window.connector.setAgentSpeechMuted(false));
  expect(await page.evaluate(() => window.connector.audioElements())).toEqual([{ paused: false, muted: false, liveTracks: 1 }]);
  await agent.leave();
});

test('time limit: the terminal state is kept, and the agent leaving ends the session with it', async ({ palaver, newPage }) => {
  const room = await sessionRoom(palaver.media);
  const agent = await ScriptedAgent.join(palaver.media, room, 'listening', 2);
  const page = await newPage();
  const joined = await joinPage(page, palaver.media, room, 'human_time_limit', { microphone: false });
  expect(joined).toMatchObject({ ok: true, snapshot: { status: 'connected', agentState: 'listening', remainingSeconds: 2 } });
  await agent.setState('time_limit_exceeded', 0);
  await eventually(async () => expect(await snapshot(page)).toMatchObject({ agentState: 'time_limit_exceeded', remainingSeconds: 0 }));
  // A late non-terminal update does not revive the session.
  await agent.setState('listening', 0);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect((await snapshot(page)).agentState).toBe('time_limit_exceeded');
  await agent.leave();
  await eventually(async () =>
    expect(await snapshot(page)).toMatchObject({ status: 'not_connected', ended: 'time_limit_exceeded', agentState: 'time_limit_exceeded', error: null }),
  );
  expect((await history(page)).ended).toEqual(['time_limit_exceeded']);
});

test('usage limit: the server closing the room ends the session with the terminal state', async ({ palaver, newPage }) => {
  const room = await sessionRoom(palaver.media);
  const agent = await ScriptedAgent.join(palaver.media, room, 'speaking', null);
  const page = await newPage();
  await joinPage(page, palaver.media, room, 'human_usage_limit', { microphone: false });
  await agent.setState('usage_limit_exceeded', null);
  await eventually(async () => expect((await snapshot(page)).agentState).toBe('usage_limit_exceeded'));
  await palaver.media.transport.deleteRoom(room);
  await eventually(async () =>
    expect(await snapshot(page)).toMatchObject({ status: 'not_connected', ended: 'usage_limit_exceeded', agentState: 'usage_limit_exceeded' }),
  );
  await agent.leave().catch(() => {});
});

test('no agent comes: the connector gives up after agentTimeoutMs with agent_unavailable and leaves', async ({ palaver, newPage }) => {
  const room = await sessionRoom(palaver.media);
  const page = await newPage();
  const joined = await joinPage(page, palaver.media, room, 'human_alone', { agentTimeoutMs: 1500, microphone: false });
  expect(joined.snapshot.status).toBe('waiting_for_agent');
  await eventually(
    async () =>
      expect(await snapshot(page)).toMatchObject({
        status: 'not_connected',
        ended: 'agent_unavailable',
        error: { name: 'ConnectionError', reason: 'agent_unavailable', message: 'no agent joined the session in time' },
      }),
    5000,
  );
  await eventually(() =>
    expect(palaver.media.endpoint?.clientSessions().filter((session) => session.state.identity === 'human_alone' && !session.left)).toEqual([]),
  );
});

test('a dropped signalling socket: reconnecting (shown as resuming, decision 0103), then connected, and packets still arrive', async ({ palaver, newPage }) => {
  const room = await sessionRoom(palaver.media);
  const agent = await ScriptedAgent.join(palaver.media, room, 'listening', null);
  const page = await newPage();
  await joinPage(page, palaver.media, room, 'human_resume', { microphone: false });
  const session = palaver.media.endpoint?.clientSessions().find((candidate) => candidate.state.identity === 'human_resume' && !candidate.left);
  if (!session) throw new Error('no client session');
  session.dropSignal();
  await eventually(async () => expect((await history(page)).statuses).toEqual(['connecting', 'connected', 'reconnecting', 'connected']), 20_000);
  expect((await history(page)).connectionStates).toEqual(['connecting', 'connected', 'resuming', 'connected']);
  await agent.say({ id: 'after_resume', agent: true, final: true, created_at: new Date().toISOString(), speaking_ended_at: null, text: 'Still here.' });
  await eventually(async () => expect((await snapshot(page)).transcriptions.map((item) => item.text)).toEqual(['Still here.']));
  await page.evaluate(() => window.connector.sendChat('Good.'));
  await eventually(() => expect(agent.packets('chat_input').map((packet) => packet.payload)).toEqual([{ text: 'Good.' }]));
  await page.evaluate(() => window.connector.disconnect());
  await agent.leave();
});

test('a token the server refuses: connect fails with an unauthorized ConnectionError', async ({ palaver, newPage }) => {
  const room = await sessionRoom(palaver.media);
  const page = await newPage();
  const token = await palaver.media.createJoinToken({ room, identity: 'human_forged' });
  const forged = `${token.slice(0, token.lastIndexOf('.'))}.${'A'.repeat(43)}`;
  const result = await page.evaluate(([url, jwt]) => window.connector.connect(url, jwt, { microphone: false }), [palaver.media.clientUrl(), forged] as const);
  expect(result).toMatchObject({
    ok: false,
    error: { name: 'ConnectionError', reason: 'unauthorized' },
    snapshot: { status: 'not_connected', ended: 'failed' },
  });
  expect(result.snapshot.error).toEqual(result.ok ? null : result.error);
  expect((await history(page)).statuses).toEqual(['connecting', 'not_connected']);
});

test("useVoiceAgent in Chromium: a React app renders the agent's states and transcript, and sends typed turns", async ({ palaver, newPage }) => {
  const room = await sessionRoom(palaver.media);
  const page = await newPage('react');
  const token = await palaver.media.createJoinToken({ room, identity: 'human_react' });
  await expect(page.getByTestId('connection')).toHaveText('not_connected');
  await page.evaluate(([url, jwt]) => (window as unknown as { setConnectionDetails(details: object): void }).setConnectionDetails({ url, token: jwt }), [
    palaver.media.clientUrl(),
    token,
  ] as const);
  await page.getByRole('button', { name: 'Call' }).click();
  await expect(page.getByTestId('connection')).toHaveText('waiting_for_agent');
  await expect(page.getByTestId('agent')).toHaveText('none');

  const agent = await ScriptedAgent.join(palaver.media, room, 'listening', 30);
  await expect(page.getByTestId('connection')).toHaveText('connected');
  await expect(page.getByTestId('agent')).toHaveText('listening');
  await expect(page.getByTestId('remaining')).toHaveText('30');

  await page.getByLabel('message').fill('Tell me a joke.');
  await page.getByRole('button', { name: 'Send' }).click();
  await eventually(() => expect(agent.packets('chat_input')).toEqual([{ from: 'human_react', payload: { text: 'Tell me a joke.' } }]));
  await agent.setState('speaking', 29);
  const now = Date.now();
  await agent.say({ id: 'me_1', agent: false, final: true, created_at: new Date(now).toISOString(), speaking_ended_at: null, text: 'Tell me a joke.' });
  await agent.say({ id: 'joke', agent: true, final: false, created_at: new Date(now + 1000).toISOString(), speaking_ended_at: null, text: 'Why did' });
  await agent.say({
    id: 'joke',
    agent: true,
    final: true,
    created_at: new Date(now + 1000).toISOString(),
    speaking_ended_at: null,
    text: 'Why did the chicken cross the road?',
  });
  await expect(page.getByTestId('agent')).toHaveText('speaking');
  await expect(page.getByTestId('remaining')).toHaveText('29');
  await expect(page.getByTestId('transcript').getByRole('listitem')).toHaveText(['me: Tell me a joke.', 'agent: Why did the chicken cross the road?']);

  await page.getByRole('button', { name: 'Hang up' }).click();
  await expect(page.getByTestId('connection')).toHaveText('not_connected');
  await expect(page.getByTestId('ended')).toHaveText('client');
  await expect(page.getByTestId('agent')).toHaveText('none');
  await expect(page.getByTestId('transcript').getByRole('listitem')).toHaveCount(2);
  await agent.leave();
});

test('starting a session from the browser with a usage token: the REST start is called (CORS), its refusal is the connect error', async ({
  palaver,
  newPage,
}) => {
  const baseUrl = palaver.server.url!;
  const { token } = await createClient({ baseUrl, apiKey: palaver.server.apiKey }).usage.createToken({ human: 'browser_human' });
  const page = await newPage();
  // Validated by the server before anything starts: an LLM that does not exist.
  const config = { general: {}, input: {}, output: {}, generative: { llm: 'llm_does_not_exist' } };
  const refused = await page.evaluate(([jwt, url, body]) => window.connector.connect('', jwt, { baseUrl: url, config: body, microphone: false }), [
    token,
    baseUrl,
    config,
  ] as const);
  expect(refused).toMatchObject({ ok: false, error: { name: 'BadRequestError' }, snapshot: { status: 'not_connected', ended: 'failed', sessionId: null } });
  expect(refused.ok ? '' : refused.error.message).toContain('config.generative.llm');
  expect((await history(page)).statuses).toEqual(['connecting', 'not_connected']);

  const forged = await page.evaluate(([url, body]) => window.connector.connect('', 'not-a-usage-token', { baseUrl: url, config: body, microphone: false }), [
    baseUrl,
    config,
  ] as const);
  expect(forged).toMatchObject({ ok: false, error: { name: 'AuthenticationError' }, snapshot: { status: 'not_connected', ended: 'failed' } });
});

test('client-side tools: the connector acks a request, runs the handler and sends its result; a cancel aborts a running call', async ({ palaver, newPage }) => {
  const room = await sessionRoom(palaver.media);
  const page = await newPage();
  await joinPage(page, palaver.media, room, 'human_tools', { microphone: false });
  const agent = await ScriptedAgent.join(palaver.media, room, 'listening');
  await eventually(async () => expect((await snapshot(page)).status).toBe('connected'));
  const request = (id: string, name: string, args: Record<string, unknown>) => ({
    type: 'tool_call_request',
    payload: {
      type: 'initiate_request',
      tool_definition: { id: `tool_${name}`, name, description: '', parameters: [], call_settings: { id: `cs_${name}`, destination: { type: 'client_app' } } },
      tool_call: { id, tool_definition_id: `tool_${name}`, function: { name, arguments: args } },
    },
  });
  const send = (message: object) => agent.connection.sendData(JSON.stringify(message), { topic: 'tool_call', reliable: true });

  await send(request('call_echo', 'echo_tool', { city: 'Paris' }));
  await eventually(() =>
    expect(agent.packets('tool_call')).toEqual([
      { from: 'human_tools', payload: { type: 'initiate_ack', call_id: 'call_echo' } },
      { from: 'human_tools', payload: { type: 'result', call_id: 'call_echo', result: { echoed: { city: 'Paris' }, from: 'chromium' }, error: null } },
    ]),
  );

  // A tool the app has no handler for: acknowledged, then answered with an error.
  await send(request('call_missing', 'missing_tool', {}));
  await eventually(() =>
    expect(agent.packets('tool_call').slice(2)).toEqual([
      { from: 'human_tools', payload: { type: 'initiate_ack', call_id: 'call_missing' } },
      { from: 'human_tools', payload: { type: 'result', call_id: 'call_missing', result: null, error: "this app has no handler for the tool 'missing_tool'" } },
    ]),
  );

  // A running call shows in the snapshot until the agent cancels it; the cancelled handler sends nothing.
  await send(request('call_wait', 'wait_tool', {}));
  await eventually(async () => expect(await page.evaluate(() => window.connector.toolCalls())).toEqual(['call_wait']));
  await send({ type: 'cancel', call_id: 'call_wait' });
  await eventually(async () => expect((await history(page)).toolCancels).toEqual(['call_wait']));
  expect(await page.evaluate(() => window.connector.toolCalls())).toEqual([]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(agent.packets('tool_call').slice(4)).toEqual([{ from: 'human_tools', payload: { type: 'initiate_ack', call_id: 'call_wait' } }]);

  await page.evaluate(() => window.connector.disconnect());
  await agent.leave();
});
