import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { BadRequestError, NotFoundError, PermissionDeniedError, UsageLimitExceededError, type PalaverClient } from '../../src/index.js';
import { storeKinds } from '../support/databases.js';
import { apiFailureOf } from '../support/failure-of.js';
import { useHumanClient } from '../support/human-clients.js';
import { useTestServer } from '../support/suite-server.js';
import type { TestServer } from '../support/test-server.js';

const LLM = 'builtin-offline';

/** A start body with every section at its defaults except what `generative` and `rest` say. */
function startBody(generative: Record<string, unknown> = {}, rest: Record<string, unknown> = {}) {
  return { config: { general: {}, input: {}, output: {}, generative: { llm: LLM, ...generative } }, simulated: true, ...rest };
}

/** The webhook events written for one session, oldest first, as `{type, payload}`. */
async function eventsOf(test: TestServer, sessionId: string): Promise<Array<{ type: string; payload: Record<string, unknown> }>> {
  const rows = await test.server.services.store.db
    .selectFrom('webhook_events')
    .select(['body'])
    .where('project', '=', test.server.project)
    .where('body', 'like', `%${sessionId}%`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => JSON.parse(row.body));
}

async function invalidField(promise: Promise<unknown>): Promise<string> {
  const error = await apiFailureOf(promise);
  expect(BadRequestError.isInstance(error), error.message).toBe(true);
  expect(error.type).toBe('invalid_input');
  return error.message;
}

describe.each(await storeKinds())('realtime sessions (%s)', (kind) => {
  const test = useTestServer(kind, { config: { webhook: { dispatch: false } } });
  const alice = useHumanClient(test, 'alice');
  const bob = useHumanClient(test, 'bob');

  it('refuses unknown or invisible generative ids with 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ llm: 'llm_missing' }, 'config.generative.llm'],
      [{ persona: 'persona_missing' }, 'config.generative.persona'],
      [{ voice_override: 'voice_missing' }, 'config.generative.voice_override'],
      [{ scenario: 'scenario_missing' }, 'config.generative.scenario'],
      [{ context: 'context_missing' }, 'config.generative.context'],
      [{ tool_definitions: ['tool_missing'] }, 'config.generative.tool_definitions[0]'],
    ];
    for (const [generative, field] of cases) {
      const message = await invalidField(test.client.realtime.start(startBody(generative)));
      expect(message, field).toContain(field);
    }
    // Another human's persona is as unknown as a missing one.
    const bobsPersona = await bob.personas.create({ name: 'Bob only', description: 'private', voice: 'flite-slt' });
    expect(await invalidField(alice.realtime.start(startBody({ persona: bobsPersona.id })))).toContain('config.generative.persona');
  });

  it('input.turn_detection (Palaver extension): defaults filled, kept and updated whole; a wait range upside down is a 400', async () => {
    const { session } = await test.client.realtime.start({ ...startBody(), config: { ...startBody().config, input: { turn_detection: { mode: 'fixed' } } } });
    expect(session.config.input.turn_detection).toEqual({ mode: 'fixed', silence_ms: 550, min_wait_ms: 200, max_wait_ms: 1200, preemptive: true });
    expect((await test.client.realtime.retrieve(session.id)).config.input.turn_detection).toMatchObject({ mode: 'fixed' });
    const updated = await test.client.realtime.update(session.id, { input: { turn_detection: { mode: 'adaptive', min_wait_ms: 300, max_wait_ms: 900 } } });
    expect(updated.config.input).toMatchObject({
      interruptable: true,
      turn_detection: { mode: 'adaptive', min_wait_ms: 300, max_wait_ms: 900, preemptive: true },
    });
    // Without it the agent uses its defaults (adaptive); the stored config stays as sent.
    expect((await test.client.realtime.start(startBody())).session.config.input.turn_detection).toBeUndefined();
    const upsideDown = { ...startBody(), config: { ...startBody().config, input: { turn_detection: { min_wait_ms: 900, max_wait_ms: 300 } } } };
    expect(await invalidField(test.client.realtime.start(upsideDown))).toContain('max_wait_ms');
    const tooShort = { ...startBody(), config: { ...startBody().config, input: { turn_detection: { silence_ms: 10 } } } };
    expect(await invalidField(test.client.realtime.start(tooShort))).toContain('silence_ms');
  });

  it('answers the resolved objects, a new context, and connection details for the session room', async () => {
    const persona = await test.client.personas.create({ name: 'Ada', description: 'Tutor', voice: 'flite-slt' });
    const scenario = await test.client.scenarios.create({ name: 'Lesson', project: test.server.project, prompt: 'Teach fractions.' });
    const tool = await test.client.tools.create({
      name: 'lookup',
      description: 'Looks a word up',
      parameters: [{ name: 'word', description: 'The word', type: 'string', required: true }],
      call_settings: { destination: { type: 'client_app' } },
    });
    const { session, connection_details } = await test.client.realtime.start(
      startBody(
        { persona: persona.id, scenario: scenario.id, voice_override: 'flite-rms', tool_definitions: [tool.id], _extra: { k: 1 } },
        { _extra: { partner: 'x' } },
      ),
    );
    expect(session).toMatchObject({ state: 'not_started', simulated: true, project: test.server.project, data: [], _extra: { partner: 'x' } });
    expect(session.id).toMatch(/^rts_/);
    expect(session.human).toBeUndefined();
    expect(session.ended_at).toBeUndefined();
    expect(session.config.general).toEqual({ time_limit_s: null, save_messages: true });
    expect(session.config.input).toEqual({ interruptable: true, parallel_listening: false });
    expect(session.config.output).toEqual({ stream_transcript: true, speech_synthesis_enabled: true });
    const { generative } = session.config;
    expect(generative.llm).toMatchObject({ id: LLM, model: 'palaver-offline' });
    expect(generative.persona).toEqual(persona);
    expect(generative.scenario).toEqual(scenario);
    expect(generative.voice_override).toMatchObject({ id: 'flite-rms' });
    expect(generative.tool_definitions).toEqual([tool]);
    expect(generative._extra).toEqual({ k: 1 });
    // No context was given: a new one exists, tied to nobody's earlier conversation.
    expect(generative.context.id).toMatch(/^context_/);
    expect(await test.client.contexts.retrieve(generative.context.id)).toEqual(generative.context);
    const second = await test.client.realtime.start(startBody());
    expect(second.session.config.generative.context.id).not.toBe(generative.context.id);

    // The token is a LiveKit JWT for the session's room; an API key without a human joins as a guest.
    const claims = decodeJwt(connection_details.token) as { sub?: string; video?: { room?: string; roomJoin?: boolean } };
    expect(claims.video).toMatchObject({ room: session.id, roomJoin: true });
    expect(claims.sub).toMatch(/^guest-/);
    expect(connection_details.url).toMatch(/^wss?:\/\//);
    expect(test.server.services.media.endpoint!.rooms.get(session.id)!.metadata).toBe(JSON.stringify({ session: session.id }));

    // A human's session: owned by the human, who joins under their own identity.
    const mine = await alice.realtime.start(startBody());
    expect(mine.session.human).toBe('alice');
    expect(decodeJwt(mine.connection_details.token)).toMatchObject({ sub: 'alice', video: { room: mine.session.id } });
    expect(mine.session.config.generative.context.human).toBe('alice');
  });

  it('uses a given context, and refuses to save a human session to a context shared by the project', async () => {
    const own = await alice.contexts.create({ messages: [{ role: 'user', content: 'Earlier question' }] });
    const { session } = await alice.realtime.start(startBody({ context: own.id }));
    expect(session.config.generative.context).toMatchObject({ id: own.id, latest_messages: [expect.objectContaining({ role: 'user' })] });
    const shared = await test.client.contexts.create({});
    expect(await invalidField(alice.realtime.start(startBody({ context: shared.id })))).toContain('config.generative.context');
    // Without saving messages, a shared context may be read by the session.
    const reading = await alice.realtime.start({
      ...startBody({ context: shared.id }),
      config: { ...startBody().config, general: { save_messages: false }, generative: { llm: LLM, context: shared.id } },
    });
    expect(reading.session.config.generative.context.id).toBe(shared.id);
  });

  it('starts a session with an agent: in progress, the agent in the room, gone once the session ends', async () => {
    await test.server.listen(0, '127.0.0.1');
    const asStarter = test.clientWith({ apiKey: test.server.apiKey, humanId: 'with-agent' });
    // Validation still comes first.
    expect(await invalidField(asStarter.realtime.start(startBody({ llm: 'llm_missing' }, { simulated: false })))).toContain('config.generative.llm');
    const { session, connection_details } = await asStarter.realtime.start(startBody({}, { simulated: false }));
    expect(session.state).toBe('in_progress');
    expect(decodeJwt(connection_details.token).sub).toBe('with-agent');
    const human = await test.server.services.media.transport.join({ room: session.id, identity: 'with-agent' });
    try {
      await expect
        .poll(() => human.participants().map((participant) => `${participant.identity}:${participant.kind}`), { timeout: 10_000 })
        .toContain('agent:agent');
      const ended = await asStarter.realtime.end(session.id);
      expect(ended.state).toBe('ended');
      await expect.poll(() => human.participants().some((participant) => participant.identity === 'agent'), { timeout: 10_000 }).toBe(false);
    } finally {
      await human.leave();
    }
  });

  it('lists newest first, page by page', async () => {
    const lister = test.clientWith({ apiKey: test.server.apiKey, humanId: 'lister' });
    const started: string[] = [];
    for (let index = 0; index < 23; index += 1) started.push((await lister.realtime.start(startBody())).session.id);
    const first = await lister.realtime.list();
    expect(first.total_count).toBe(23);
    expect(first.values).toHaveLength(20);
    expect(first.next_page).toEqual(expect.any(String));
    const second = await lister.realtime.list({ page: first.next_page! });
    expect(second.values).toHaveLength(3);
    expect(second.next_page ?? null).toBeNull();
    expect([...first.values, ...second.values].map((session) => session.id)).toEqual([...started].reverse());
    expect((await apiFailureOf(lister.realtime.list({ page: 'not-a-token' }))).status).toBe(400);
  });

  it('shows a human only their own sessions: another human gets 404 everywhere', async () => {
    const { session } = await alice.realtime.start(startBody());
    const projectWide = (await test.client.realtime.start(startBody())).session;
    const bobByKey = test.clientWith({ apiKey: test.server.apiKey, humanId: 'bob' });
    for (const client of [bob, bobByKey] as PalaverClient[]) {
      for (const call of [
        () => client.realtime.retrieve(session.id),
        () => client.realtime.update(session.id, { input: { interruptable: false } }),
        () => client.realtime.end(session.id),
      ]) {
        expect(NotFoundError.isInstance(await apiFailureOf(call()))).toBe(true);
      }
      expect((await client.realtime.list()).values.map((value) => value.id)).not.toContain(session.id);
    }
    expect(NotFoundError.isInstance(await apiFailureOf(bobByKey.realtime.speak(session.id, { text: 'hi' })))).toBe(true);
    // A project-wide session is nobody's to see but the project's key.
    expect(NotFoundError.isInstance(await apiFailureOf(alice.realtime.retrieve(projectWide.id)))).toBe(true);
    expect((await alice.realtime.list()).values.every((value) => value.human === 'alice')).toBe(true);
    expect((await test.client.realtime.retrieve(session.id)).human).toBe('alice');
    expect((await alice.realtime.retrieve(session.id)).id).toBe(session.id);
  });

  it('updates only the fields that were sent and re-resolves changed ids', async () => {
    const { session } = await alice.realtime.start(
      startBody(
        {},
        { config: { general: { time_limit_s: 600 }, input: { interruptable: false }, output: { answer_message: 'Hello!' }, generative: { llm: LLM } } },
      ),
    );
    const persona = await alice.personas.create({ name: 'Cleo', description: 'Guide', voice: 'flite-slt' });
    const updated = await alice.realtime.update(session.id, { output: { speech_synthesis_enabled: false }, generative: { persona: persona.id } });
    expect(updated.config).toEqual({
      ...session.config,
      output: { ...session.config.output, speech_synthesis_enabled: false },
      generative: { ...session.config.generative, persona },
    });
    expect(updated.config.output.answer_message).toBe('Hello!');
    expect(updated.config.general.time_limit_s).toBe(600);
    // null is a value (no limit), unlike a field left out.
    const unlimited = await alice.realtime.update(session.id, { general: { time_limit_s: null } });
    expect(unlimited.config.general).toEqual({ time_limit_s: null, save_messages: true });
    expect(await invalidField(alice.realtime.update(session.id, { generative: { voice_override: 'voice_missing' } }))).toContain('generative.voice_override');
    expect(await alice.realtime.retrieve(session.id)).toEqual(unlimited);
  });

  it('ends a session once: ended_at is set, a second end answers it unchanged, and an ended session cannot change', async () => {
    const { session } = await test.client.realtime.start(startBody());
    const ended = await test.client.realtime.end(session.id);
    expect(ended.state).toBe('ended');
    expect(Date.parse(ended.ended_at!)).toBeGreaterThanOrEqual(Date.parse(session.created_at));
    expect(await test.client.realtime.end(session.id)).toEqual(ended);
    expect(await test.client.realtime.retrieve(session.id)).toEqual(ended);
    expect(await invalidField(test.client.realtime.update(session.id, { input: { interruptable: false } }))).toContain('ended');
    expect(test.server.services.media.endpoint!.rooms.get(session.id)).toBeUndefined();
    expect(NotFoundError.isInstance(await apiFailureOf(test.client.realtime.end('rts_missing')))).toBe(true);
  });

  it('speaks only in a live session, and only for API keys', async () => {
    const { session } = await alice.realtime.start(startBody());
    const notLive = await apiFailureOf(test.client.realtime.speak(session.id, { text: 'Hello there' }));
    expect(BadRequestError.isInstance(notLive)).toBe(true);
    expect(notLive.message).toContain('not_started');
    await test.client.realtime.end(session.id);
    const ended = await apiFailureOf(test.client.realtime.speak(session.id, { text: 'Hello there' }));
    expect(BadRequestError.isInstance(ended)).toBe(true);
    expect(ended.message).toContain('not in progress');
    expect(PermissionDeniedError.isInstance(await apiFailureOf(alice.realtime.speak(session.id, { text: 'Hello there' })))).toBe(true);
  });

  it('writes a state_changed event for every state change, with the previous and current session', async () => {
    const { session } = await alice.realtime.start(startBody());
    await alice.realtime.update(session.id, { input: { interruptable: false } });
    const ended = await alice.realtime.end(session.id);
    await alice.realtime.end(session.id);
    const events = await eventsOf(test, session.id);
    expect(events.map((event) => event.type)).toEqual(['realtime_session.state_changed', 'realtime_session.state_changed']);
    expect(events[0]!.payload.previous_realtime_session).toBeUndefined();
    expect(events[0]!.payload.current_realtime_session).toMatchObject({ id: session.id, state: 'not_started', human: 'alice' });
    expect(events[1]!.payload.previous_realtime_session).toMatchObject({ id: session.id, state: 'not_started', config: { input: { interruptable: false } } });
    expect(events[1]!.payload.current_realtime_session).toMatchObject({ id: session.id, state: 'ended', ended_at: ended.ended_at });
  });

  it('refuses to start for a human without token budget (400 usage_limit_exceeded)', async () => {
    const spent = test.clientWith({ apiKey: test.server.apiKey, humanId: 'spent' });
    await test.client.usage.updateLimits({ human: 'spent', limits: [{ type: 'token_cnt', value: 10 }] });
    expect((await spent.realtime.start(startBody())).session.human).toBe('spent');
    await test.server.services.usage.record({ project: test.server.project, human: 'spent' }, 'token_cnt', 10);
    const error = await apiFailureOf(spent.realtime.start(startBody()));
    expect(UsageLimitExceededError.isInstance(error)).toBe(true);
    expect(error.status).toBe(400);
    expect(error.message).toContain('token_cnt');
    // Other humans and project-wide calls are not limited by it.
    expect((await test.client.realtime.start(startBody())).session.state).toBe('not_started');
  });
});
