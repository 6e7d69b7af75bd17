import { spawnSync } from 'node:child_process';
import {
  LocalVideoTrack,
  Room,
  RoomEvent,
  TrackPublishOptions,
  TrackSource,
  VideoBufferType,
  VideoFrame as LivekitVideoFrame,
  VideoSource,
  VideoStream,
  TrackKind,
  type RemoteTrack,
  type RemoteTrackPublication,
} from '@livekit/rtc-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIME_API_TOPIC, RuntimeApiEnvelope } from '../../src/contract/graph/runtime-api.js';
import type { GraphDocument } from '../../src/contract/graph/graph-document.js';
import { graphOf } from '../../src/testing/graph-kit.js';
import { AppRunHost } from '../../src/server/graph/app-run-host.js';
import { GraphChecker } from '../../src/server/domain/apps/graph-checker.js';
import { createLogger } from '../../src/server/kernel/logger.js';
import type { AgentTransport } from '../../src/server/engines/media/index.js';
import { LivekitAgentTransport } from '../../src/server/engines/media/livekit/livekit-agent-transport.js';
import { DEVELOPMENT_API_SECRET } from '../../src/server/engines/media/media-service.js';
import { startFakeVisionUpstream, type FakeVisionUpstream } from '../../src/testing/fake-vision-upstream.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { paintFrame } from '../../src/testing/video-frames.js';
import { requireComponent } from '../support/components.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
const WIDTH = 640;
const HEIGHT = 360;

/** The template's graph with its LLM node set to a model defined on the platform. */
function withModel(graph: object, model: string): GraphDocument {
  const copy = structuredClone(graph) as { nodes: Array<{ id: string; pads: Array<{ id: string; value: unknown }> }> };
  const pad = copy.nodes.find((node) => node.id === 'llm')!.pads.find((candidate) => candidate.id === 'model')!;
  pad.value = model;
  return copy as unknown as GraphDocument;
}

/**
 * The "Conversation with video" template in an app run, the human on `@livekit/rtc-node` showing a camera of one
 * colour and typing "what colour is this?": Publish.video decodes the camera, FPS and SlidingWindow keep its frames,
 * the typed question flushes them into the user message, and a vision model defined on the platform (a fake
 * OpenAI-protocol upstream that names the colour of the JPEG it gets) answers. Through both agent transports.
 */
describe.each(['embedded', 'livekit'] as const)('Conversation with video over the %s agent transport', (kind) => {
  let test: TestServer;
  let transport: AgentTransport;
  let host: AppRunHost;
  let vision: FakeVisionUpstream;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
    vision = await startFakeVisionUpstream();
    const { media, speech, chat, voiceSynthesis } = test.server.services;
    transport =
      kind === 'embedded'
        ? media.transport
        : new LivekitAgentTransport({ url: media.clientUrl(), apiKey: media.apiKey, apiSecret: DEVELOPMENT_API_SECRET, logger: createLogger('silent') });
    host = new AppRunHost({ transport, engines: { chat, speech, voices: voiceSynthesis }, logger: createLogger('silent') });
  });

  afterAll(async () => {
    await host?.close();
    if (kind === 'livekit') await transport?.close();
    await vision?.close();
    await test?.close();
  });

  it('a typed "what colour is this?" is answered with the colour the camera shows', async (context) => {
    if (kind === 'embedded' && !requireComponent('ffmpeg', hasFfmpeg, 'the embedded endpoint decodes video with Debian ffmpeg')) return context.skip();
    const { services } = test.server;
    const llm = await test.client.llms.create({
      name: 'vision',
      description: 'fake vision model',
      headers: [],
      model: 'fake-vision',
      post_url: vision.chatUrl,
    });
    const template = await test.client.appTemplates.retrieve('app_template_video_conversation');
    const principal = { project: test.server.project, kind: 'key' as const, human: null, credentialId: 'key_test' };
    const graph = await new GraphChecker(services.subgraphs).check(principal, 'graph', withModel(template.graph, llm.id));
    const runId = `run_video_${kind}`;
    await transport.ensureRoom({ room: runId });
    await host.start({ runId, principal, graph, publisherMetadata: undefined }, { stopped: () => undefined });

    const human = new Room();
    const events: RuntimeApiEnvelope[] = [];
    human.on(RoomEvent.DataReceived, (payload, _participant, _kind, topic) => {
      if (topic !== RUNTIME_API_TOPIC) return;
      const parsed = RuntimeApiEnvelope.safeParse(JSON.parse(new TextDecoder().decode(payload)));
      if (parsed.success) events.push(parsed.data);
    });
    const send = (req_id: string, payload: unknown) =>
      human.localParticipant!.publishData(new TextEncoder().encode(JSON.stringify({ type: 'request', req_id, payload })), {
        reliable: true,
        topic: RUNTIME_API_TOPIC,
      });
    const source = new VideoSource(WIDTH, HEIGHT);
    let index = 0;
    const camera = setInterval(() => {
      source.captureFrame(new LivekitVideoFrame(paintFrame(WIDTH, HEIGHT, [220, 30, 30], index++ & 0xffff), WIDTH, HEIGHT, VideoBufferType.RGBA));
    }, 33);
    await human.connect(services.media.clientUrl(), await services.media.createJoinToken({ room: runId, identity: 'viewer' }), {
      autoSubscribe: true,
      dynacast: false,
    });
    try {
      await eventually(() => expect(human.remoteParticipants.has('agent')).toBe(true), 10_000);
      await send('sub', { type: 'subscribe', node_id: 'publish', pad_id: 'video_enabled' });
      await send('answers', { type: 'subscribe', node_id: 'llm', pad_id: 'context_message' });
      await human.localParticipant!.publishTrack(
        LocalVideoTrack.createVideoTrack('publish:video', source),
        new TrackPublishOptions({ source: TrackSource.SOURCE_CAMERA, simulcast: true }),
      );
      const valueOf = (pad: string) =>
        events.flatMap((event) => (event.type === 'event' && event.payload.type === 'value' && event.payload.pad_id === pad ? [event.payload.value] : []));
      await eventually(() => expect(valueOf('video_enabled')).toContainEqual({ type: 'boolean', value: true }), 20_000);
      // FPS lets a frame through every 2 s: the window holds one once the camera has flowed that long.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await send('ask', { type: 'push_value', node_id: 'chat', pad_id: 'output', value: { type: 'string', value: 'What colour is this?' } });
      await eventually(() => expect(JSON.stringify(valueOf('context_message'))).toContain('It is red.'), 30_000);
      expect(vision.requests.at(-1)!.partTypes).toContain('image_url');
    } finally {
      clearInterval(camera);
      await host.get(runId)?.stop('ended');
      await human.disconnect();
    }
  }, 90_000);

  it("Output.video: a graph's frames (BouncingBall) reach the human as the agent's video track `output:video`", async (context) => {
    if (kind === 'embedded' && !requireComponent('ffmpeg', hasFfmpeg, 'the embedded endpoint encodes video with Debian ffmpeg')) return context.skip();
    const { services } = test.server;
    const principal = { project: test.server.project, kind: 'key' as const, human: null, credentialId: 'key_test' };
    const document = graphOf(
      [
        { id: 'ball', type: 'BouncingBall' },
        { id: 'output', type: 'Output' },
      ],
      [{ from: 'ball.video', to: 'output.video' }],
    );
    const graph = await new GraphChecker(services.subgraphs).check(principal, 'graph', document);
    const runId = `run_ball_${kind}`;
    await transport.ensureRoom({ room: runId });
    await host.start({ runId, principal, graph, publisherMetadata: undefined }, { stopped: () => undefined });
    const human = new Room();
    const subscribed = new Promise<{ track: RemoteTrack; name: string }>((resolve) =>
      human.on(RoomEvent.TrackSubscribed, (track: RemoteTrack, publication: RemoteTrackPublication) => {
        if (track.kind === TrackKind.KIND_VIDEO) resolve({ track, name: publication.name ?? '' });
      }),
    );
    await human.connect(services.media.clientUrl(), await services.media.createJoinToken({ room: runId, identity: 'watcher' }), {
      autoSubscribe: true,
      dynacast: false,
    });
    try {
      const { track, name } = await subscribed;
      expect(name).toBe('output:video');
      const reader = new VideoStream(track).getReader();
      const { value } = await reader.read();
      const rgba = value!.frame.convert(VideoBufferType.RGBA);
      reader.releaseLock();
      expect({ width: rgba.width, height: rgba.height }).toEqual({ width: 640, height: 480 });
      // A white ball on a dark background: both show in the picture.
      const luma = Array.from(
        { length: rgba.width * rgba.height },
        (_, pixel) => (rgba.data[pixel * 4]! + rgba.data[pixel * 4 + 1]! + rgba.data[pixel * 4 + 2]!) / 3,
      );
      expect(luma.filter((value) => value > 200).length).toBeGreaterThan(100);
      expect(luma.filter((value) => value < 60).length).toBeGreaterThan(rgba.width * rgba.height * 0.5);
    } finally {
      await host.get(runId)?.stop('ended');
      await human.disconnect();
    }
  }, 60_000);
});
