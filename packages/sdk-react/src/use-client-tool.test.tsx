// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRealtimeSession, type ClientToolContext, type ClientToolHandler } from '@palaver/sdk-core/realtime';
import { useClientTool, useVoiceAgent } from './index.js';

const context = {} as ClientToolContext;

/** A real session whose tool registrations are observed: name -> the handler the hooks registered, and how many are active. */
function observedSession() {
  const session = createRealtimeSession({ microphone: false });
  const registered = new Map<string, ClientToolHandler>();
  const active = new Set<string>();
  const original = session.onToolCall.bind(session);
  vi.spyOn(session, 'onToolCall').mockImplementation((name, handler) => {
    registered.set(name, handler);
    active.add(name);
    const off = original(name, handler);
    return () => {
      active.delete(name);
      off();
    };
  });
  return { session, registered, active };
}

describe('client tool hooks', () => {
  afterEach(() => cleanup());

  it("useVoiceAgent({ tools }) registers each tool once, calls the latest render's handler, and unregisters on unmount", async () => {
    const { session, registered, active } = observedSession();
    function App({ answer }: { answer: string }) {
      useVoiceAgent({ session, tools: { get_answer: () => answer, other_tool: () => 'other' } });
      return null;
    }
    const view = render(<App answer="first" />);
    expect([...active].sort()).toEqual(['get_answer', 'other_tool']);
    expect(await registered.get('get_answer')!({}, context)).toBe('first');
    view.rerender(<App answer="second" />);
    expect(session.onToolCall).toHaveBeenCalledTimes(2);
    expect(await registered.get('get_answer')!({}, context)).toBe('second');
    view.unmount();
    expect([...active]).toEqual([]);
  });

  it('useClientTool registers one handler on the given session', async () => {
    const { session, registered, active } = observedSession();
    function Tool() {
      useClientTool(session, 'where_am_i', (args) => ({ city: 'Paris', args }));
      return null;
    }
    const view = render(<Tool />);
    expect(await registered.get('where_am_i')!({ precise: true }, context)).toEqual({ city: 'Paris', args: { precise: true } });
    view.unmount();
    expect(active.size).toBe(0);
  });
});
