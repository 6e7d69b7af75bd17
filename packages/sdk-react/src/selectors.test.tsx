// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppRun, createRealtimeSession, type AppRun, type RealtimeSession } from '@palaver/sdk-core/realtime';
import { AppRunProvider, shallowEqual, useAppRun, useVoiceAgent, VoiceAgentProvider } from './index.js';

/** Nothing listens here: joining fails, and the session goes connecting -> not_connected (failed) for real. */
const unreachable = { connection_details: { url: 'ws://127.0.0.1:1', token: 'not-a-room-token' } };

/** Counts the renders of each named component. */
function renderCounter() {
  const counts: Record<string, number> = {};
  return { counts, count: (name: string) => void (counts[name] = (counts[name] ?? 0) + 1) };
}

describe('useVoiceAgent(selector)', () => {
  afterEach(() => cleanup());

  function tree(session: RealtimeSession, count: (name: string) => void) {
    function Whole() {
      const agent = useVoiceAgent();
      count('whole');
      return <p data-testid="status">{agent.status}</p>;
    }
    function Badge() {
      const agentState = useVoiceAgent((agent) => agent.agentState);
      count('badge');
      return <p>{agentState ?? 'no agent'}</p>;
    }
    function SpeechToggle() {
      // A new object each time, equal key by key: shallow comparison keeps the last one.
      const { muted, setMuted } = useVoiceAgent((agent) => ({ muted: agent.agentSpeechMuted, setMuted: agent.setAgentSpeechMuted }));
      count('speech');
      return (
        <button data-testid="speech" onClick={() => setMuted(!muted)}>
          {muted ? 'muted' : 'audible'}
        </button>
      );
    }
    function Ended() {
      const reason = useVoiceAgent((agent) => agent.ended?.reason);
      count('ended');
      return <p data-testid="ended">{reason ?? '-'}</p>;
    }
    return (
      <VoiceAgentProvider session={session}>
        <Whole />
        <Badge />
        <SpeechToggle />
        <Ended />
      </VoiceAgentProvider>
    );
  }

  it('re-renders a component only when its selection changes; the whole hook re-renders on every change', async () => {
    const session = createRealtimeSession({ microphone: false });
    const { counts, count } = renderCounter();
    render(tree(session, count));
    expect(counts).toEqual({ whole: 1, badge: 1, speech: 1, ended: 1 });

    for (let toggle = 0; toggle < 3; toggle++) act(() => screen.getByTestId('speech').click());
    expect(screen.getByTestId('speech').textContent).toBe('muted');
    await act(() => session.connect(unreachable).catch(() => {}));
    await waitFor(() => expect(screen.getByTestId('ended').textContent).toBe('failed'));

    // Three mute changes and a failed connection (connecting, then not_connected): the whole view saw them all,
    // the speech toggle only its three, the end reason one, and the agent state badge (never an agent) none.
    expect(counts.whole).toBeGreaterThanOrEqual(1 + 3 + 2);
    expect(counts).toMatchObject({ badge: 1, speech: 1 + 3, ended: 1 + 1 });
  });

  it('a custom isEqual decides what counts as a change', () => {
    const session = createRealtimeSession();
    let renders = 0;
    function Never() {
      useVoiceAgent((agent) => agent.agentSpeechMuted, { session, isEqual: () => true });
      renders++;
      return null;
    }
    render(<Never />);
    act(() => session.setAgentSpeechMuted(true));
    expect(session.getSnapshot().agentSpeechMuted).toBe(true);
    expect(renders).toBe(1);
  });
});

describe('useVoiceAgent: the time warning', () => {
  afterEach(() => cleanup());

  it("calls the latest onRemainingSecondsWarning on the session's event while mounted, and not after", () => {
    const session = createRealtimeSession();
    const heard: string[] = [];
    function Warned({ label }: { label: string }) {
      useVoiceAgent({ session, onRemainingSecondsWarning: (seconds) => heard.push(`${label}:${seconds}`) });
      return null;
    }
    const view = render(<Warned label="first" />);
    act(() => void session.emit('remainingSecondsWarning', 60));
    view.rerender(<Warned label="second" />);
    act(() => void session.emit('remainingSecondsWarning', 30));
    view.unmount();
    session.emit('remainingSecondsWarning', 10);
    expect(heard).toEqual(['first:60', 'second:30']);
    expect(session.listenerCount('remainingSecondsWarning')).toBe(0);
  });
});

describe('useAppRun(selector)', () => {
  afterEach(() => cleanup());

  it("reads the provider's run and re-renders only when the selection changes", async () => {
    const run: AppRun = createAppRun();
    const { counts, count } = renderCounter();
    function RunId() {
      const runId = useAppRun((controls) => controls.runId);
      count('runId');
      return <p>{runId ?? 'none'}</p>;
    }
    function Status() {
      const status = useAppRun((controls) => controls.status);
      count('status');
      return <p data-testid="run-status">{status}</p>;
    }
    render(
      <AppRunProvider run={run}>
        <RunId />
        <Status />
      </AppRunProvider>,
    );
    await act(() => run.connect(unreachable).catch(() => {}));
    await waitFor(() => expect(run.getSnapshot().status).toBe('not_connected'));
    expect(run.getSnapshot().ended?.reason).toBe('failed');
    expect(counts).toEqual({ runId: 1, status: 1 + 2 });
  });
});

describe('shallowEqual', () => {
  it('compares plain objects and arrays key by key, anything else by identity', () => {
    const list = [1];
    expect(shallowEqual({ a: 1, b: list }, { a: 1, b: list })).toBe(true);
    expect(shallowEqual({ a: 1, b: [1] }, { a: 1, b: [1] })).toBe(false);
    expect(shallowEqual([1, 'x'], [1, 'x'])).toBe(true);
    expect(shallowEqual([1], { 0: 1 })).toBe(false);
    expect(shallowEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(shallowEqual(new Date(0), new Date(0))).toBe(false);
    expect(shallowEqual(Number.NaN, Number.NaN)).toBe(true);
    expect(shallowEqual(null, {})).toBe(false);
  });
});
