import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ContextMessageCreateParams } from '../../src/contract/contexts.js';
import type { RealtimeSessionConfig } from '../../src/contract/realtime.js';
import { ApiError, BadRequestError } from '../../src/index.js';
import type {
  AgentSessionEvents,
  AgentSessionHandle,
  AgentSessionHost,
  AgentSessionSpec,
  AgentStopReason,
} from '../../src/server/kernel/ports/agent-session-host.js';
import { createServer, type PalaverServer } from '../../src/server.js';
import type { Principal } from '../../src/server/kernel/principal.js';
import type { Services } from '../../src/server/domain/services.js';
import { RealtimeSessionService } from '../../src/server/domain/realtime/realtime-session-service.js';
import { requireComponent } from '../support/components.js';
import { dropSchema, postgresReachable, postgresUrl, storeKinds, uniqueSchema } from '../support/databases.js';
import { failureOf } from '../support/failure-of.js';
import { useTestServer } from '../support/suite-server.js';
import { redisReachable, redisUrl } from '../support/redis.js';

/** One agent as the test host ran it: every call the session service made on its handle. */
class RecordingHandle implements AgentSessionHandle {
  readonly calls: Array<['speak', string] | ['update', RealtimeSessionConfig] | ['stop', AgentStopReason | undefined]> = [];

  constructor(readonly sessionId: string) {}

  async speak(text: string): Promise<void> {
    this.calls.push(['speak', text]);
  }

  update(config: RealtimeSessionConfig): void {
    this.calls.push(['update', config]);
  }

  async stop(reason?: AgentStopReason): Promise<void> {
    this.calls.push(['stop', reason]);
  }
}

/** The agent seam with no runtime behind it: records starts and hands out recording handles. */
class RecordingHost implements AgentSessionHost {
  readonly started: Array<{ spec: AgentSessionSpec; events: AgentSessionEvents; handle: RecordingHandle }> = [];
  /** Runs inside `start` before it returns (e.g. the agent failing or stopping at once). */
  onStart: ((spec: AgentSessionSpec, events: AgentSessionEvents) => Promise<void>) | undefined;

  async start(spec: AgentSessionSpec, events: AgentSessionEvents): Promise<AgentSessionHandle> {
    await this.onStart?.(spec, events);
    const handle = new RecordingHandle(spec.session.id);
    this.started.push({ spec, events, handle });
    return handle;
  }

  async close(): Promise<void> {}

  agentOf(sessionId: string) {
    const found = this.started.find((entry) => entry.spec.session.id === sessionId);
    if (!found) throw new Error(`no agent was started for ${sessionId}`);
    return found;
  }
}

function serviceWith(services: Services, agents: AgentSessionHost, replyTimeoutMs?: number): RealtimeSessionService {
  return new RealtimeSessionService({ ...services, agents, ...(replyTimeoutMs !== undefined ? { control: { replyTimeoutMs } } : {}) });
}

function principalOf(server: PalaverServer, human: string | null): Principal {
  return { project: server.project, kind: 'key', human, credentialId: 'test-key' };
}

const start = {
  config: {
    general: { time_limit_s: 30, save_messages: true },
    input: { interruptable: true, parallel_listening: false },
    output: { stream_transcript: true, speech_synthesis_enabled: true },
    generative: { llm: 'builtin-offline' },
  },
};
const media = { fallbackMediaUrl: 'http://palaver.test' };

async function eventTypes(services: Services, sessionId: string): Promise<string[]> {
  const rows = await services.store.db
    .selectFrom('webhook_events')
    .select('type')
    .where('body', 'like', `%${sessionId}%`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => row.type);
}

describe.each(await storeKinds())('realtime sessions with an agent host (%s)', (kind) => {
  const test = useTestServer(kind, { config: { webhook: { dispatch: false } } });

  it('starts the agent with the session, its principal and the human identity, then is in progress', async () => {
    const host = new RecordingHost();
    const realtime = serviceWith(test.server.services, host);
    const principal = principalOf(test.server, 'carol');
    const { session, connection_details } = await realtime.start(principal, start, media);
    expect(session.state).toBe('in_progress');
    expect(connection_details.url).toBe('ws://palaver.test');
    const { spec } = host.agentOf(session.id);
    expect(spec.principal).toEqual(principal);
    expect(spec.humanIdentity).toBe('carol');
    expect(spec.session).toMatchObject({ id: session.id, state: 'not_started', human: 'carol', config: { generative: { llm: { id: 'builtin-offline' } } } });
    expect(await eventTypes(test.server.services, session.id)).toEqual(['realtime_session.state_changed', 'realtime_session.state_changed']);
    expect((await realtime.retrieve(principal, session.id)).state).toBe('in_progress');
  });

  it('carries update, speak and end to the running agent; end stops it once', async () => {
    const host = new RecordingHost();
    const realtime = serviceWith(test.server.services, host);
    const principal = principalOf(test.server, null);
    const { session } = await realtime.start(principal, start, media);
    const { handle } = host.agentOf(session.id);

    const updated = await realtime.update(principal, session.id, { output: { speech_synthesis_enabled: false } });
    expect(handle.calls).toEqual([['update', updated.config]]);
    expect(updated.config.output.speech_synthesis_enabled).toBe(false);
    expect(await realtime.speak(principal, session.id, 'One moment please.')).toMatchObject({ id: session.id, state: 'in_progress' });
    expect(handle.calls.at(-1)).toEqual(['speak', 'One moment please.']);

    const ended = await realtime.end(principal, session.id);
    expect(ended).toMatchObject({ state: 'ended', ended_at: expect.any(String) });
    expect(await realtime.end(principal, session.id)).toEqual(ended);
    expect(handle.calls.filter(([call]) => call === 'stop')).toEqual([['stop', 'ended']]);
    expect(BadRequestError.isInstance(await failureOf(realtime.speak(principal, session.id, 'Too late')))).toBe(true);
    expect(handle.calls.filter(([call]) => call === 'speak')).toHaveLength(1);
  });

  it('saves committed messages to the session context with a message_committed event, unless save_messages is off', async () => {
    const host = new RecordingHost();
    const realtime = serviceWith(test.server.services, host);
    const principal = principalOf(test.server, 'dana');
    const { session } = await realtime.start(principal, start, media);
    const { events } = host.agentOf(session.id);
    const spoken: ContextMessageCreateParams = { role: 'assistant', content: 'Hello Dana!', speaking_started_at: new Date().toISOString() };
    await events.messageCommitted({ role: 'user', content: 'Hi there' });
    await events.messageCommitted(spoken);

    const contextId = session.config.generative.context.id;
    const messages = (await test.server.services.contexts.listMessages(principal, contextId, {})).values;
    expect(messages.map((message) => [message.role, message.content, message.realtime_session])).toEqual([
      ['user', [{ type: 'text', text: 'Hi there' }], session.id],
      ['assistant', [{ type: 'text', text: 'Hello Dana!' }], session.id],
    ]);
    // The session answers the conversation as it is now.
    expect((await realtime.retrieve(principal, session.id)).config.generative.context.latest_messages).toHaveLength(2);
    const rows = await test.server.services.store.db
      .selectFrom('webhook_events')
      .select('body')
      .where('type', '=', 'realtime_session.message_committed')
      .where('body', 'like', `%${session.id}%`)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(rows.map((row) => JSON.parse(row.body).payload)).toEqual([
      { message: messages[0], session: session.id, realtime_session_id: session.id },
      { message: messages[1], session: session.id, realtime_session_id: session.id },
    ]);

    await realtime.update(principal, session.id, { general: { save_messages: false } });
    await events.messageCommitted({ role: 'user', content: 'Off the record' });
    expect((await test.server.services.contexts.listMessages(principal, contextId, {})).values).toHaveLength(2);
  });

  it('a committed message and its message_committed event are one write: when the event cannot be stored, neither is', async () => {
    const host = new RecordingHost();
    const realtime = serviceWith(test.server.services, host);
    const principal = principalOf(test.server, 'fay');
    const { session } = await realtime.start(principal, start, media);
    const { events } = host.agentOf(session.id);
    const contextId = session.config.generative.context.id;
    const { db, dialect } = test.server.services.store;
    // A fault in the outbox, injected by the database itself: the event insert of this session fails.
    if (dialect === 'sqlite') {
      await sql`CREATE TRIGGER refuse_committed BEFORE INSERT ON webhook_events WHEN NEW.type = 'realtime_session.message_committed' BEGIN SELECT RAISE(ABORT, 'outbox unavailable'); END`.execute(
        db,
      );
    } else {
      await sql`CREATE FUNCTION refuse_committed() RETURNS trigger AS $$ BEGIN IF NEW.type = 'realtime_session.message_committed' THEN RAISE EXCEPTION 'outbox unavailable'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`.execute(
        db,
      );
      await sql`CREATE TRIGGER refuse_committed BEFORE INSERT ON webhook_events FOR EACH ROW EXECUTE FUNCTION refuse_committed()`.execute(db);
    }
    try {
      await expect(events.messageCommitted({ role: 'user', content: 'Lost with its event' })).rejects.toThrow(/outbox unavailable/);
    } finally {
      if (dialect === 'sqlite') await sql`DROP TRIGGER refuse_committed`.execute(db);
      else await sql`DROP TRIGGER refuse_committed ON webhook_events; DROP FUNCTION refuse_committed()`.execute(db);
    }
    expect((await test.server.services.contexts.listMessages(principal, contextId, {})).values).toEqual([]);
    await events.messageCommitted({ role: 'user', content: 'Kept with its event' });
    const messages = (await test.server.services.contexts.listMessages(principal, contextId, {})).values;
    expect(messages.map((message) => message.content)).toEqual([[{ type: 'text', text: 'Kept with its event' }]]);
  });

  it('ends the session when the agent stops on its time limit, with the time_limit_exceeded event', async () => {
    const host = new RecordingHost();
    const realtime = serviceWith(test.server.services, host);
    const principal = principalOf(test.server, 'erin');
    const { session } = await realtime.start(principal, start, media);
    await host.agentOf(session.id).events.stopped('time_limit_exceeded');
    const ended = await realtime.retrieve(principal, session.id);
    expect(ended).toMatchObject({ state: 'ended', ended_at: expect.any(String) });
    expect(await eventTypes(test.server.services, session.id)).toEqual([
      'realtime_session.state_changed',
      'realtime_session.state_changed',
      'realtime_session.state_changed',
      'realtime_session.time_limit_exceeded',
    ]);
    const rows = await test.server.services.store.db
      .selectFrom('webhook_events')
      .select('body')
      .where('type', '=', 'realtime_session.time_limit_exceeded')
      .where('body', 'like', `%${session.id}%`)
      .execute();
    expect(rows.map((row) => JSON.parse(row.body))).toEqual([{ type: 'realtime_session.time_limit_exceeded', payload: { session: session.id } }]);
    // Stopping twice changes nothing more; the stopped agent is not stopped again by an end call.
    await host.agentOf(session.id).events.stopped('human_left');
    expect(await realtime.end(principal, session.id)).toEqual(ended);
    expect(host.agentOf(session.id).handle.calls).toEqual([]);
    expect(await eventTypes(test.server.services, session.id)).toHaveLength(4);
  });

  it('ends the session and answers 503 when the agent cannot start; stops an agent that stopped while starting', async () => {
    const host = new RecordingHost();
    const realtime = serviceWith(test.server.services, host);
    const principal = principalOf(test.server, 'fay');
    host.onStart = async () => {
      throw new Error('no speech engine');
    };
    const failure = await failureOf(realtime.start(principal, start, media));
    expect(ApiError.isInstance(failure) && failure.status).toBe(503);
    expect(failure.message).toContain('no speech engine');
    const [failed] = (await realtime.list(principal, {})).values;
    expect(failed).toMatchObject({ state: 'ended' });
    expect(test.server.services.media.endpoint!.rooms.get(failed!.id)).toBeUndefined();

    host.onStart = async (_spec, events) => events.stopped('usage_limit_exceeded');
    const { session } = await realtime.start(principal, start, media);
    expect(session.state).toBe('ended');
    expect(host.agentOf(session.id).handle.calls).toEqual([['stop', 'ended']]);
  });
});

const withPostgres = requireComponent('PostgreSQL', await postgresReachable(), `cannot connect to ${postgresUrl}`);
const withRedis = requireComponent('Redis', await redisReachable(), `cannot connect to ${redisUrl}`);

describe.runIf(withPostgres && withRedis)('realtime sessions across instances (PostgreSQL + Redis)', () => {
  it('update, speak and end called on another instance reach the instance hosting the agent', async () => {
    const schema = uniqueSchema();
    const options = {
      env: {},
      databaseSchema: schema,
      config: { logLevel: 'silent' as const, databaseUrl: postgresUrl, redisUrl, apiKey: 'pk_shared_realtime_key_0123456789' },
    };
    const servers: PalaverServer[] = [];
    try {
      servers.push(...(await Promise.all([createServer(options), createServer(options)])));
      const [first, second] = servers as [PalaverServer, PalaverServer];
      const hosting = new RecordingHost();
      const other = new RecordingHost();
      const onFirst = serviceWith(first.services, hosting, 1000);
      const onSecond = serviceWith(second.services, other, 1000);
      const principal = principalOf(first, 'gil');
      const { session } = await onFirst.start(principal, start, media);
      const { handle } = hosting.agentOf(session.id);

      const updated = await onSecond.update(principal, session.id, { input: { interruptable: false } });
      await onSecond.speak(principal, session.id, 'Across instances');
      expect(handle.calls).toEqual([
        ['update', updated.config],
        ['speak', 'Across instances'],
      ]);
      expect((await onSecond.end(principal, session.id)).state).toBe('ended');
      expect(handle.calls.at(-1)).toEqual(['stop', 'ended']);
      expect(other.started).toHaveLength(0);

      // With the hosting instance unreachable (its bus connection gone, its lease still valid), a command finds
      // nobody to answer it: 503, not a hang.
      const orphan = (await onFirst.start(principal, start, media)).session;
      await first.services.bus.close();
      const unreachable = await failureOf(onSecond.speak(principal, orphan.id, 'Anyone?'));
      expect(ApiError.isInstance(unreachable) && unreachable.status).toBe(503);
      expect(unreachable.message).toContain('no server instance hosts the agent');
      await onSecond.close();
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      await dropSchema(schema);
    }
  });
});
