// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { StrictMode, useEffect, useRef } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { ConnectionError, createRealtimeSession, type SDKSessionTranscription } from '@palaver/sdk-core/realtime';
import { createTestPlatform, type TestPlatform } from '@palaver/sdk-core/testing';
import { PalaverProvider, useVoiceAgent, type UseVoiceAgentOptions, type VoiceAgent } from './index.js';

const config = { general: {}, input: {}, output: {}, generative: { llm: 'llm_builtin' } };

/** Renders the hook's state and records every connection state it rendered. */
function Call({ options, onRender }: { options?: UseVoiceAgentOptions; onRender?: (agent: VoiceAgent) => void }) {
  const agent = useVoiceAgent(options);
  const seen = useRef<string[]>([]);
  if (seen.current.at(-1) !== agent.connectionState) seen.current.push(agent.connectionState);
  useEffect(() => {
    onRender?.(agent);
  });
  return (
    <div>
      <p data-testid="states">{seen.current.join(' ')}</p>
      <p data-testid="error">{agent.error ? `${agent.error.name}: ${agent.ended?.reason}` : 'none'}</p>
      <button onClick={() => void agent.connect({ token: 'not-a-usage-token', config })}>connect</button>
    </div>
  );
}

describe('useVoiceAgent', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform();
  });
  afterAll(async () => platform.close());
  afterEach(() => cleanup());

  it("starts sessions on the provider client's platform and re-renders through each state; a refused token ends as failed", async () => {
    render(
      <PalaverProvider client={platform.clientWith({})}>
        <Call />
      </PalaverProvider>,
    );
    expect(screen.getByTestId('states').textContent).toBe('not_connected');
    fireEvent.click(screen.getByText('connect'));
    // The request reached the real server, which refused the token with 401.
    await waitFor(() => expect(screen.getByTestId('error').textContent).toBe('AuthenticationError: failed'));
    expect(screen.getByTestId('states').textContent).toBe('not_connected connecting not_connected');
  });

  it('reads a session it was given, and its controls act on that session', async () => {
    const session = createRealtimeSession({ baseUrl: 'http://palaver.test', fetch: platform.server.fetch });
    let agent: VoiceAgent | undefined;
    render(<Call options={{ session }} onRender={(rendered) => (agent = rendered)} />);
    expect(agent?.session).toBe(session);
    expect(agent?.state).toBe(session.getSnapshot());
    await act(() => session.connect({ token: 'bad', config }).catch(() => {}));
    expect(agent?.state).toBe(session.getSnapshot());
    expect(agent).toMatchObject({
      status: 'not_connected',
      connectionState: 'not_connected',
      ended: { reason: 'failed' },
      agentState: undefined,
      transcriptions: [],
    });
    await expect(agent!.sendChatMessage({ text: 'hello' })).rejects.toSatisfy((error) => ConnectionError.isInstance(error) && error.reason === 'closed');
    // Never rejects: failures are state.
    await expect(agent!.connect({ token: 'bad', config })).resolves.toBeUndefined();
  });

  it("exposes the transcript's lines as the contract types them, the agent's cut lines marked `interrupted`", () => {
    expectTypeOf<VoiceAgent['transcriptions'][number]>().toEqualTypeOf<SDKSessionTranscription>();
    expectTypeOf<VoiceAgent['transcriptions'][number]['interrupted']>().toEqualTypeOf<boolean | undefined>();
  });

  it('takes the noiseSuppression option, and its switch re-renders with the wish (applied once a microphone is published)', async () => {
    let agent: VoiceAgent | undefined;
    render(<Call options={{ noiseSuppression: true }} onRender={(rendered) => (agent = rendered)} />);
    expect(agent).toMatchObject({ noiseSuppression: true, noiseSuppressionActive: false });
    await act(() => agent!.setNoiseSuppression(false));
    expect(agent).toMatchObject({ noiseSuppression: false, noiseSuppressionActive: false });
    expect(agent!.session.getSnapshot().noiseSuppression).toEqual({ wanted: false, active: false });
  });

  it("connectOnMount connects, and unmounting leaves (also under StrictMode's double effects)", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const requests: string[] = [];
    const session = createRealtimeSession({
      baseUrl: 'http://palaver.test',
      fetch: async (request) => {
        requests.push(new URL(request.url).pathname);
        await held;
        return platform.server.fetch(request);
      },
    });
    const view = render(
      <StrictMode>
        <Call options={{ session, connectOnMount: { token: 'bad', config } }} />
      </StrictMode>,
    );
    await waitFor(() => expect(session.getSnapshot()).toMatchObject({ status: 'connecting', step: 'starting_session' }));
    expect(screen.getByTestId('states').textContent).toContain('connecting');
    view.unmount();
    expect(session.getSnapshot()).toMatchObject({ status: 'not_connected', ended: { reason: 'client' } });
    release();
    expect(requests.every((path) => path === '/v1/realtime/start')).toBe(true);
  });
});
