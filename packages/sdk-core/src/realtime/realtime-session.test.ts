// @vitest-environment happy-dom
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthenticationError } from '../errors/api-error.js';
import { AbortError, ConnectionError } from '../errors/transport-errors.js';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { RealtimeState } from './session-state.js';
import { createRealtimeSession } from './realtime-session.js';

const config = { general: {}, input: {}, output: {}, generative: { llm: 'llm_builtin' } };

describe('RealtimeSession (without media: the REST start and failing joins)', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform();
  });
  afterAll(async () => platform.close());

  const sessionOnPlatform = () => createRealtimeSession({ baseUrl: 'http://palaver.test', fetch: platform.server.fetch });

  it('starting with a refused usage token: connect rejects with the API error, the snapshot and events tell the same', async () => {
    const session = sessionOnPlatform();
    const snapshots: RealtimeState[] = [];
    session.subscribe(() => snapshots.push(session.getSnapshot()));
    const events: string[] = [];
    session.on('connectionStateChanged', (state) => events.push(`connection:${state}`));
    session.on('error', (error) => events.push(`error:${error.name}`));
    session.on('ended', (end) => events.push(`ended:${end.reason}`));

    const failure = await session.connect({ token: 'not-a-usage-token', config }).catch((error: unknown) => error);
    expect(AuthenticationError.isInstance(failure)).toBe(true);
    expect(snapshots.map((snapshot) => snapshot.status)).toEqual(['connecting', 'not_connected']);
    expect(snapshots[0]).toMatchObject({ step: 'starting_session' });
    const state = session.getSnapshot();
    expect(state).toMatchObject({ status: 'not_connected', ended: { reason: 'failed' } });
    expect(state.error).toBe(failure);
    expect(events).toEqual(['connection:connecting', 'connection:not_connected', 'error:AuthenticationError', 'ended:failed']);
  });

  it('the snapshot is one frozen object between changes', async () => {
    const session = sessionOnPlatform();
    const first = session.getSnapshot();
    expect(session.getSnapshot()).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toMatchObject({ status: 'not_connected', connectionState: 'not_connected', transcriptions: [] });
    await session.connect({ token: 'bad', config }).catch(() => {});
    expect(session.getSnapshot()).not.toBe(first);
    expect(first.status).toBe('not_connected');
  });

  it('disconnect while the session is being started: connect rejects with AbortError, state ends as client', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const session = createRealtimeSession({
      baseUrl: 'http://palaver.test',
      fetch: async (request) => {
        await held;
        return platform.server.fetch(request);
      },
    });
    const connecting = session.connect({ token: 'bad', config }).catch((error: unknown) => error);
    // Connecting once the session module (REST client, schemas, room link) is loaded: at once when it already is.
    await vi.waitFor(() => expect(session.getSnapshot().status).toBe('connecting'));
    await session.disconnect();
    release();
    expect(AbortError.isInstance(await connecting)).toBe(true);
    expect(session.getSnapshot()).toMatchObject({ status: 'not_connected', ended: { reason: 'client' }, error: undefined });
  });

  it('where WebRTC is missing (here: happy-dom), joining fails with a media_failed ConnectionError', async () => {
    const session = createRealtimeSession({ microphone: false });
    const failure = await session.connect({ connection_details: { url: 'ws://127.0.0.1:9', token: 'x.y.z' } }).catch((error: unknown) => error);
    expect(ConnectionError.isInstance(failure) && failure.reason).toBe('media_failed');
    expect((failure as Error).message).toMatch(/supported on this browser/);
    expect(session.getSnapshot()).toMatchObject({ status: 'not_connected', ended: { reason: 'failed', error: failure } });
  });

  it('rejects malformed options, a second connect and chat without an agent', async () => {
    const session = sessionOnPlatform();
    await expect(session.connect({} as never)).rejects.toThrow(TypeError);
    await expect(session.connect({ connection_details: { url: '', token: 'x' } })).rejects.toThrow(TypeError);
    await expect(session.sendChatMessage({ text: 'hi' })).rejects.toSatisfy((error) => ConnectionError.isInstance(error) && error.reason === 'closed');
    await expect(session.sendChatMessage({ text: '' })).rejects.toThrow(TypeError);
    const first = session.connect({ token: 'bad', config }).catch(() => {});
    await expect(session.connect({ token: 'bad', config })).rejects.toThrow(/cannot connect while connecting/);
    await first;
  });

  it('a listener that throws does not break the session', async () => {
    const session = sessionOnPlatform();
    const seen: string[] = [];
    session.subscribe(() => {
      throw new Error('listener bug');
    });
    session.subscribe(() => seen.push(session.getSnapshot().status));
    const swallowed: unknown[] = [];
    const onError = (error: unknown) => swallowed.push(error);
    process.on('uncaughtException', onError);
    try {
      await session.connect({ token: 'bad', config }).catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('uncaughtException', onError);
    }
    expect(seen).toEqual(['connecting', 'not_connected']);
    // Reported (asynchronously) rather than swallowed.
    expect(swallowed.map((error) => (error as Error).message)).toEqual(['listener bug', 'listener bug']);
  });
});
