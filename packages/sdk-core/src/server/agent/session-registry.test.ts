import { describe, expect, it } from 'vitest';
import type { AgentSessionHandle } from '../kernel/ports/agent-session-host.js';
import { SessionRegistry } from './session-registry.js';

function handle(id: string): AgentSessionHandle {
  return { sessionId: id, speak: async () => undefined, update: () => undefined, stop: async () => undefined };
}

describe('SessionRegistry', () => {
  it('starts a session once: a start while it is starting or running answers the same handle', async () => {
    const sessions = new SessionRegistry<object>();
    let launches = 0;
    const launch = async () => ({ session: { n: ++launches }, handle: handle('s1') });
    const [first, second] = await Promise.all([sessions.start('s1', launch), sessions.start('s1', launch)]);
    expect(second).toBe(first);
    expect(await sessions.start('s1', launch)).toBe(first);
    expect(launches).toBe(1);
    expect(sessions.size).toBe(1);
  });

  it('forgets a stopped session only while it is the one registered, and hands everything over on close', async () => {
    const sessions = new SessionRegistry<object>();
    const old = {};
    const current = {};
    await sessions.start('s1', async () => ({ session: old, handle: handle('s1') }));
    sessions.forget('s1', old);
    await sessions.start('s1', async () => ({ session: current, handle: handle('s1') }));
    sessions.forget('s1', old);
    expect(sessions.size).toBe(1);
    expect(sessions.takeAll().map(({ session }) => session)).toEqual([current]);
    expect(sessions.size).toBe(0);
  });

  it('registers nothing when the launch fails, and a later start launches again', async () => {
    const sessions = new SessionRegistry<object>();
    await expect(sessions.start('s1', async () => Promise.reject(new Error('no room')))).rejects.toThrow('no room');
    expect(sessions.size).toBe(0);
    await sessions.start('s1', async () => ({ session: {}, handle: handle('s1') }));
    expect(sessions.size).toBe(1);
  });
});
