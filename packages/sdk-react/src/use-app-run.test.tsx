// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useEffect, useRef } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError, createAppRun, type AppRun } from '@palaver/sdk-core/realtime';
import { createTestPlatform, graphOf, type TestPlatform } from '@palaver/sdk-core/testing';
import { AppRunProvider, PalaverProvider, useAppRun, usePad, type AppRunControls, type UseAppRunOptions } from './index.js';

/** Renders the hook's state and records every connection state it rendered. */
function Runner({
  options,
  connectWith,
  onRender,
}: {
  options?: UseAppRunOptions;
  connectWith: Parameters<AppRunControls['connect']>[0];
  onRender?: (run: AppRunControls) => void;
}) {
  const appRun = useAppRun(options);
  const seen = useRef<string[]>([]);
  if (seen.current.at(-1) !== appRun.connectionState) seen.current.push(appRun.connectionState);
  useEffect(() => {
    onRender?.(appRun);
  });
  return (
    <div>
      <p data-testid="states">{seen.current.join(' ')}</p>
      <p data-testid="run">{appRun.runId ?? 'none'}</p>
      <p data-testid="error">{appRun.error ? `${appRun.error.name}: ${appRun.ended?.reason}` : 'none'}</p>
      <button onClick={() => void appRun.connect(connectWith)}>run</button>
    </div>
  );
}

function PadView({ node, pad, run }: { node: string; pad: string; run?: AppRun }) {
  const state = usePad(node, pad, run);
  return <p data-testid={`${node}.${pad}`}>{state.value === undefined ? 'unset' : JSON.stringify(state.value)}</p>;
}

describe('useAppRun and usePad', () => {
  let platform: TestPlatform;
  let app: string;
  beforeAll(async () => {
    platform = await createTestPlatform();
    app = (await platform.client.appTemplates.apply('app_template_echo', { name: 'Echo for hooks' })).id;
  });
  afterAll(async () => platform.close());
  afterEach(() => cleanup());

  it("creates runs on the provider client's platform; a refused usage token ends as failed before any run exists", async () => {
    render(
      <PalaverProvider client={platform.clientWith({})}>
        <Runner connectWith={{ token: 'not-a-usage-token', app }} />
      </PalaverProvider>,
    );
    fireEvent.click(screen.getByText('run'));
    await waitFor(() => expect(screen.getByTestId('error').textContent).toBe('AuthenticationError: failed'));
    expect(screen.getByTestId('states').textContent).toBe('not_connected connecting not_connected');
    expect(screen.getByTestId('run').textContent).toBe('none');
  });

  it('a usage token creates the run as its human (the run id shows), then joining fails here without WebRTC', async () => {
    const { token } = await platform.client.usage.createToken({ human: 'hooks-human', ttl_seconds: 600 });
    let latest: AppRunControls | undefined;
    render(
      <PalaverProvider client={platform.clientWith({})}>
        <Runner connectWith={{ token, app }} onRender={(rendered) => (latest = rendered)} />
      </PalaverProvider>,
    );
    fireEvent.click(screen.getByText('run'));
    await waitFor(() => expect(screen.getByTestId('run').textContent).toMatch(/\S+/), { timeout: 10_000 });
    await waitFor(() => expect(latest?.ended?.reason).toBe('failed'), { timeout: 20_000 });
    const runId = latest!.runId!;
    expect(runId).not.toBe('none');
    // happy-dom has no RTCPeerConnection: livekit-client refuses to join, reported as a media failure.
    expect(ConnectionError.isInstance(latest!.error) && latest!.error.reason).toBe('media_failed');
    // The run exists on the platform, created for the token's human.
    expect(platform.server.services.appRuns.hosts(runId)).toBe(true);
  });

  it('usePad reads the run of <AppRunProvider>; pushes are typed by the graph and refused clearly while not connected', async () => {
    const graph = graphOf([{ id: 'greeting', type: 'String', values: { value: 'hello' } }], []);
    const run = createAppRun({ baseUrl: 'http://palaver.test', fetch: platform.server.fetch, graph });
    let pushed: ReturnType<typeof usePad> | undefined;
    function Pusher() {
      pushed = usePad('greeting', 'value');
      return null;
    }
    render(
      <AppRunProvider run={run}>
        <PadView node="greeting" pad="value" />
        <Pusher />
      </AppRunProvider>,
    );
    expect(screen.getByTestId('greeting.value').textContent).toBe('unset');
    await expect(pushed!.push('hi')).rejects.toSatisfy((error) => ConnectionError.isInstance(error) && error.reason === 'closed');
    await expect(run.pushValue('nope', 'value', 'hi')).rejects.toThrow("the run's graph has no node 'nope'");
    await expect(run.pushValue('greeting', 'nope', 'hi')).rejects.toThrow("node 'greeting' (String) has no pad 'nope'");
    await act(async () => run.dispose());
  });

  it('usePad outside a provider and without a run says what it needs', () => {
    const quiet = console.error;
    console.error = () => {};
    try {
      expect(() => render(<PadView node="a" pad="b" />)).toThrow('usePad needs an <AppRunProvider> above it, or the run as its third argument');
    } finally {
      console.error = quiet;
    }
  });
});
