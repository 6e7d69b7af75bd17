// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, createAppRun, createRealtimeSession, type RealtimeSession } from '@palaver/sdk-core/realtime';
import { useAgentVideo, useCamera, useScreenShare } from './index.js';

/** Nothing listens here: joining fails, and the session goes connecting -> not_connected (failed) for real. */
const unreachable = { connection_details: { url: 'ws://127.0.0.1:1', token: 'not-a-room-token' } };

describe('useCamera, useScreenShare, useAgentVideo', () => {
  afterEach(() => cleanup());

  function tree(session: RealtimeSession, counts: Record<string, number>) {
    function CameraButton() {
      const camera = useCamera(session);
      counts.camera = (counts.camera ?? 0) + 1;
      return (
        <button data-testid="camera" onClick={() => void camera.toggle()}>
          {`${camera.wanted ? 'wanted' : 'not wanted'}/${camera.enabled ? 'on' : 'off'}/${camera.stream ? 'preview' : 'no preview'}/${camera.cameras.length} cameras`}
        </button>
      );
    }
    function ScreenButton() {
      const share = useScreenShare(session);
      counts.screen = (counts.screen ?? 0) + 1;
      return <p data-testid="screen">{`${share.enabled ? 'sharing' : 'not sharing'}/${share.pending ? 'pending' : 'settled'}`}</p>;
    }
    function AgentVideo() {
      const video = useAgentVideo(session);
      counts.video = (counts.video ?? 0) + 1;
      return <p data-testid="video">{video ? 'agent video' : 'no agent video'}</p>;
    }
    return (
      <>
        <CameraButton />
        <ScreenButton />
        <AgentVideo />
      </>
    );
  }

  it('the camera toggle records the wish before connecting; each hook re-renders only for its own slice', async () => {
    const session = createRealtimeSession({ microphone: false });
    const counts: Record<string, number> = {};
    render(tree(session, counts));
    // The device lists were read (an effect): let it settle.
    await act(async () => {});
    // happy-dom has no media devices: an empty list, no preview, no agent video.
    expect(screen.getByTestId('camera').textContent).toBe('not wanted/off/no preview/0 cameras');
    expect(screen.getByTestId('video').textContent).toBe('no agent video');
    const first = { ...counts };

    act(() => screen.getByTestId('camera').click());
    await waitFor(() => expect(screen.getByTestId('camera').textContent).toBe('wanted/off/no preview/0 cameras'));
    expect(session.getSnapshot().camera).toEqual({ wanted: true, enabled: false, pending: false, error: undefined });
    // Changes of other slices (speech muted) re-render none of them; the camera's wish re-rendered only the camera.
    act(() => session.setAgentSpeechMuted(true));
    expect(counts).toEqual({ ...first, camera: first.camera! + 1 });

    act(() => screen.getByTestId('camera').click());
    await waitFor(() => expect(screen.getByTestId('camera').textContent).toBe('not wanted/off/no preview/0 cameras'));
    // A failed connection changes the status, not these slices.
    await act(() => session.connect(unreachable).catch(() => {}));
    expect(session.getSnapshot().status).toBe('not_connected');
    expect(counts).toEqual({ ...first, camera: first.camera! + 2 });
  });

  it('a screen share needs a joined room: start() rejects with ConnectionError, stop() is a no-op', async () => {
    const session = createRealtimeSession({ microphone: false });
    let share: ReturnType<typeof useScreenShare> | undefined;
    function Probe() {
      share = useScreenShare(session);
      return null;
    }
    render(<Probe />);
    const refused = await share!.start().catch((error: unknown) => error);
    expect(ConnectionError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toBe('cannot share the screen while not_connected');
    await expect(share!.stop()).resolves.toBeUndefined();
    expect(session.getSnapshot().screenShare).toEqual({ wanted: false, enabled: false, pending: false, error: undefined });
  });

  it("reads an app run's session, and its camera option starts wanted", () => {
    const run = createAppRun({ microphone: false, camera: true, publishNode: 'publish' });
    let wanted: boolean | undefined;
    function Probe() {
      wanted = useCamera(run.session).wanted;
      return null;
    }
    render(<Probe />);
    expect(wanted).toBe(true);
  });
});
