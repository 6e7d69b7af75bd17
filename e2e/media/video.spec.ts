import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { sineTone, wavFile } from '@palaver/sdk-core/testing';
import { CHROMIUM, chromiumArguments } from './support/chromium.js';
import { chromiumAvailable, eventually, expect, test } from './support/media-fixture.js';
import { serveTestPage } from './support/test-page.js';
import { bundleForPage, servePage } from '../support/bundled-page.js';
import { y4mClip } from './support/y4m.js';

test.skip(!chromiumAvailable(), 'Chromium is not installed');

/** The fake camera's colour (the clip is one colour, so any decoded pixel should be close to it). */
const GREEN = [30, 160, 60] as const;

/** The server's view of a subscriber: which simulcast layer of a track it is forwarded (test-only surface). */
interface SubscriberView {
  forwardedLayer(trackSid: string): string | undefined;
}

let browser: Browser;
/** Chromium's generated fake cameras (no file); its `fake_device_1` is a Y16 depth camera WebRTC cannot encode. */
let threeCameras: Browser;
let directory: string;
let testPage: { url: string; close(): Promise<void> };

test.beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'palaver-video-'));
  const clip = join(directory, 'camera.y4m');
  writeFileSync(clip, y4mClip({ width: 640, height: 360, fps: 30, frames: 30, rgb: GREEN }));
  const wav = join(directory, 'microphone.wav');
  writeFileSync(wav, wavFile(sineTone(440, 48_000, 2000, 0.5), 48_000));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...chromiumArguments(wav), `--use-file-for-fake-video-capture=${clip}`] });
  const fakeDevices = (arg: string) => (arg === '--use-fake-device-for-media-stream' ? '--use-fake-device-for-media-stream=device-count=3' : arg);
  threeCameras = await chromium.launch({ executablePath: CHROMIUM, args: chromiumArguments(wav).map(fakeDevices) });
  testPage = await serveTestPage();
});

test.afterAll(async () => {
  await browser?.close();
  await threeCameras?.close();
  await testPage?.close();
  rmSync(directory, { recursive: true, force: true });
});

async function openPage(from: Browser = browser): Promise<Page> {
  const page = await (await from.newContext()).newPage();
  await page.goto(testPage.url);
  await page.waitForFunction(() => 'palaver' in window);
  return page;
}

const near = (colour: readonly number[], expected: readonly number[]) => colour.every((value, index) => Math.abs(value - expected[index]!) < 40);

test('a fake camera in Chromium reaches other Chromium pages through the endpoint: size, colour, layers, pausing, mute, a late subscriber, components-react', async ({
  palaver,
}) => {
  const room = `video_${randomUUID().slice(0, 8)}`;
  await palaver.media.transport.ensureRoom({ room });
  const publisher = await openPage();
  const subscriber = await openPage();
  const url = palaver.media.clientUrl();
  await publisher.evaluate(([u, jwt]) => window.palaver.connect(u, jwt, { singlePeerConnection: true }), [
    url,
    await palaver.media.createJoinToken({ room, identity: 'camera_owner' }),
  ] as const);
  // The subscriber uses the dual peer connection protocol (/rtc), the late one the single (/rtc/v1): both send paths.
  await subscriber.evaluate(([u, jwt]) => window.palaver.connect(u, jwt, { singlePeerConnection: false }), [
    url,
    await palaver.media.createJoinToken({ room, identity: 'viewer' }),
  ] as const);
  const trackSid = await publisher.evaluate(() => window.palaver.publishCamera());

  // Announced as LiveKit does: a VIDEO camera track with its simulcast layers (livekit-client sends two for 360p).
  const endpointRoom = palaver.media.endpoint!.rooms.get(room)!;
  const info = await eventually(() => {
    const track = endpointRoom.member('camera_owner')!.state.tracks.get(trackSid)!;
    expect(track.info.mimeType).toBe('video/VP8');
    return track.info;
  });
  expect(info.toJson()).toMatchObject({ type: 'VIDEO', source: 'CAMERA', width: 640, height: 360, simulcast: true });
  const [lowest, best] = [info.layers[0]!, info.layers.at(-1)!];
  expect(best).toMatchObject({ width: 640, height: 360 });
  expect(lowest.width).toBeLessThan(640);

  // The subscriber decodes the best layer in the camera's colour.
  const first = await eventually(async () => {
    const video = await subscriber.evaluate(() => window.palaver.videoState());
    expect(video).toMatchObject({ width: 640, height: 360 });
    expect(near(video!.colour, GREEN)).toBe(true);
    return video!;
  }, 20_000);
  const viewer = endpointRoom.member('viewer') as unknown as SubscriberView;
  expect(viewer.forwardedLayer(trackSid)).toBe(best.rid);

  // UpdateTrackSettings: a lower quality switches the subscriber to the low layer at its next key frame.
  await subscriber.evaluate(() => window.palaver.setVideoQuality('low'));
  await eventually(async () => {
    expect(viewer.forwardedLayer(trackSid)).toBe(lowest.rid);
    expect(await subscriber.evaluate(() => window.palaver.videoState())).toMatchObject({ width: lowest.width, height: lowest.height });
  }, 20_000);

  // Disabled: nothing is forwarded; enabled again: frames flow again.
  await subscriber.evaluate(() => window.palaver.setVideoEnabled(false));
  await eventually(() => expect(viewer.forwardedLayer(trackSid)).toBeUndefined());
  await subscriber.evaluate(() => window.palaver.setVideoEnabled(true));
  await eventually(() => expect(viewer.forwardedLayer(trackSid)).toBe(lowest.rid), 20_000);
  const resumed = (await subscriber.evaluate(() => window.palaver.videoState()))!.framesDecoded;
  await eventually(async () => expect((await subscriber.evaluate(() => window.palaver.videoState()))!.framesDecoded).toBeGreaterThan(resumed + 10), 20_000);
  expect(resumed).toBeGreaterThan(first.framesDecoded);

  // Muted by its publisher: the server and the subscriber know; unmuted again.
  await publisher.evaluate(() => window.palaver.setCameraMuted(true));
  await eventually(async () => {
    expect(endpointRoom.member('camera_owner')!.state.tracks.get(trackSid)!.info.muted).toBe(true);
    expect(await subscriber.evaluate(() => window.palaver.remoteVideoMuted())).toBe(true);
  });
  await publisher.evaluate(() => window.palaver.setCameraMuted(false));
  await eventually(async () => expect(await subscriber.evaluate(() => window.palaver.remoteVideoMuted())).toBe(false));

  // A late subscriber gets a picture: its PLI reaches the publisher, whose encoder sends a key frame.
  const late = await openPage();
  await late.evaluate(([u, jwt]) => window.palaver.connect(u, jwt, { singlePeerConnection: true }), [
    url,
    await palaver.media.createJoinToken({ room, identity: 'late_viewer' }),
  ] as const);
  await eventually(async () => {
    const video = await late.evaluate(() => window.palaver.videoState());
    expect(video).toMatchObject({ width: 640, height: 360 });
    expect(near(video!.colour, GREEN)).toBe(true);
  }, 20_000);

  // An app built on @livekit/components-react: `useTracks` finds the camera and `VideoTrack` renders it.
  const componentsPage = await servePage(
    'video components',
    await bundleForPage(fileURLToPath(new URL('./support/video-components-page-entry.tsx', import.meta.url))),
  );
  const app = await (await browser.newContext()).newPage();
  try {
    await app.goto(componentsPage.url);
    await app.waitForFunction(() => 'setConnectionDetails' in window);
    const token = await palaver.media.createJoinToken({ room, identity: 'components_app' });
    await app.evaluate((details) => (window as unknown as { setConnectionDetails: (value: unknown) => void }).setConnectionDetails(details), { url, token });
    const rendered = app.getByTestId('cameras').locator('li[data-identity="camera_owner"] video');
    await expect(rendered).toHaveCount(1, { timeout: 20_000 });
    await expect
      .poll(() => rendered.evaluate((element: HTMLVideoElement) => [element.videoWidth, element.videoHeight]), { timeout: 20_000 })
      .toEqual([640, 360]);
  } finally {
    await app.close();
    await componentsPage.close();
  }

  // Unpublished: the subscribers see the publication go.
  await publisher.evaluate(() => window.palaver.disconnect());
  await eventually(() => expect(endpointRoom.member('camera_owner')).toBeUndefined());
  for (const page of [subscriber, late]) await page.evaluate(() => window.palaver.disconnect());
});

test('H.264 from Chromium when the client asks for it: announced as video/H264 and decoded by the other page', async ({ palaver }) => {
  const room = `video_h264_${randomUUID().slice(0, 8)}`;
  await palaver.media.transport.ensureRoom({ room });
  const publisher = await openPage();
  const subscriber = await openPage();
  const url = palaver.media.clientUrl();
  await publisher.evaluate(([u, jwt]) => window.palaver.connect(u, jwt), [url, await palaver.media.createJoinToken({ room, identity: 'h264_owner' })] as const);
  await subscriber.evaluate(([u, jwt]) => window.palaver.connect(u, jwt), [
    url,
    await palaver.media.createJoinToken({ room, identity: 'h264_viewer' }),
  ] as const);
  const trackSid = await publisher.evaluate(() => window.palaver.publishCamera('h264'));
  const endpointRoom = palaver.media.endpoint!.rooms.get(room)!;
  await eventually(() => expect(endpointRoom.member('h264_owner')!.state.tracks.get(trackSid)!.info.mimeType).toBe('video/H264'));
  await eventually(async () => {
    const video = await subscriber.evaluate(() => window.palaver.videoState());
    expect(video).toMatchObject({ width: 640, height: 360 });
    expect(near(video!.colour, GREEN)).toBe(true);
  }, 20_000);
  for (const page of [publisher, subscriber]) await page.evaluate(() => window.palaver.disconnect());
});

test('dynacast: a publisher stops sending the layers no subscriber gets and resumes them when one asks again', async ({ palaver }) => {
  const room = `video_dynacast_${randomUUID().slice(0, 8)}`;
  await palaver.media.transport.ensureRoom({ room });
  const publisher = await openPage();
  const subscriber = await openPage();
  const url = palaver.media.clientUrl();
  const join = async (page: Page, identity: string, dynacast: boolean) =>
    page.evaluate(([u, jwt, dynamic]) => window.palaver.connect(u, jwt, { dynacast: dynamic }), [
      url,
      await palaver.media.createJoinToken({ room, identity }),
      dynacast,
    ] as const);
  await join(publisher, 'dynacast_owner', true);
  await join(subscriber, 'dynacast_viewer', false);
  await publisher.evaluate(() => window.palaver.publishCamera());
  await eventually(async () => expect(await subscriber.evaluate(() => window.palaver.videoState())).toMatchObject({ width: 640, height: 360 }), 20_000);
  expect(await publisher.evaluate(() => window.palaver.publishedEncodings())).toEqual([
    { rid: 'q', active: true },
    { rid: 'h', active: true },
  ]);

  await subscriber.evaluate(() => window.palaver.setVideoQuality('low'));
  await eventually(async () =>
    expect(await publisher.evaluate(() => window.palaver.publishedEncodings())).toEqual([
      { rid: 'q', active: true },
      { rid: 'h', active: false },
    ]),
  );
  await eventually(async () => expect((await subscriber.evaluate(() => window.palaver.videoState()))!.width).toBeLessThan(640), 20_000);

  await subscriber.evaluate(() => window.palaver.setVideoQuality('high'));
  await eventually(async () => expect(await subscriber.evaluate(() => window.palaver.videoState())).toMatchObject({ width: 640, height: 360 }), 20_000);
  expect((await publisher.evaluate(() => window.palaver.publishedEncodings())).every((encoding) => encoding.active)).toBe(true);
  for (const page of [publisher, subscriber]) await page.evaluate(() => window.palaver.disconnect());
});

test('a live camera switch (the published track gets another device): the subscriber keeps decoding', async ({ palaver }) => {
  const room = `video_switch_${randomUUID().slice(0, 8)}`;
  await palaver.media.transport.ensureRoom({ room });
  const publisher = await openPage(threeCameras);
  const subscriber = await openPage();
  const url = palaver.media.clientUrl();
  await publisher.evaluate(([u, jwt]) => window.palaver.connect(u, jwt), [
    url,
    await palaver.media.createJoinToken({ room, identity: 'switch_owner' }),
  ] as const);
  await subscriber.evaluate(([u, jwt]) => window.palaver.connect(u, jwt), [
    url,
    await palaver.media.createJoinToken({ room, identity: 'switch_viewer' }),
  ] as const);
  await publisher.evaluate(() => window.palaver.publishCamera());
  const decoded = async () => (await subscriber.evaluate(() => window.palaver.videoState()))?.framesDecoded ?? 0;
  await eventually(async () => expect(await decoded()).toBeGreaterThan(10), 20_000);

  expect(await publisher.evaluate(() => window.palaver.switchCamera('fake_device_2'))).toBe(true);
  const atSwitch = await decoded();
  await eventually(async () => expect(await decoded()).toBeGreaterThan(atSwitch + 20), 20_000);
  for (const page of [publisher, subscriber]) await page.evaluate(() => window.palaver.disconnect());
});
