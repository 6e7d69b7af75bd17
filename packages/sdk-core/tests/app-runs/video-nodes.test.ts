import { spawnSync } from 'node:child_process';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GraphContextMessage, TRIGGER } from '../../src/contract/graph/pad-values.js';
import { decodeJpeg, meanColour, solidFrame, type VideoFrame } from '../../src/server/engines/media/index.js';
import { chatMessagesOf } from '../../src/server/graph/library/llm/context-messages.js';
import { withNewestMedia } from '../../src/server/graph/library/llm/llm-context-node.js';
import { RuntimeSinkPad } from '../../src/server/graph/runtime/pads.js';
import { AudioClip } from '../../src/server/graph/runtime/stream-values.js';
import { AVClip, VideoClip, isVideoPacket, type VideoFramePacket } from '../../src/server/graph/runtime/video-values.js';
import { validateGraph } from '../../src/server/graph/validation/validate-graph.js';
import { platformNodeLibrary } from '../../src/server/graph/library/node-library.js';
import { graphOf, runGraph, type GraphKitRun } from '../../src/testing/graph-kit.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { requireComponent } from '../support/components.js';
import { ChatGateway } from '../../src/server/engines/llm/chat-gateway.js';
import { createLocalChat } from '../../src/server/engines/llm/index.js';
import { createOfflineChatModel } from '../../src/server/engines/llm/offline-model.js';
import { unmeteredUsage } from '../../src/server/kernel/ports/usage-meter.js';
import type { GraphEngines } from '../../src/server/graph/runtime/run-environment.js';
import { startFakeVisionUpstream, type FakeVisionUpstream } from '../../src/testing/fake-vision-upstream.js';

const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;

const runs: GraphKitRun[] = [];
function start(nodes: Parameters<typeof graphOf>[0], links: Parameters<typeof graphOf>[1], options?: Parameters<typeof runGraph>[1]): GraphKitRun {
  const document = graphOf(nodes, links);
  expect(validateGraph(document, new Map(), platformNodeLibrary)).toEqual([]);
  const run = runGraph(document, options);
  runs.push(run);
  return run;
}

afterEach(async () => {
  for (const run of runs.splice(0)) {
    expect(run.failures).toEqual([]);
    await run.stop();
  }
});

function receive(run: GraphKitRun, path: string, value: unknown): void {
  const pad = run.pad(path);
  if (!(pad instanceof RuntimeSinkPad)) throw new Error(`${path} is not a sink`);
  pad.receive(value);
}

const packet = (frame: VideoFrame, origin = 'human'): VideoFramePacket => ({ kind: 'runtime:video', frame, origin });
const audioPacket = (seconds: number) => ({
  kind: 'runtime:audio',
  frame: { samples: new Int16Array(48_000 * seconds).fill(1000), sampleRate: 48_000, channels: 1 },
  origin: 'human',
});

describe('BouncingBall and FPS', () => {
  it('makes 640x480 frames of a ball, and FPS passes on only frames it received, each once', async () => {
    const run = start(
      [
        { id: 'ball', type: 'BouncingBall' },
        { id: 'fps', type: 'FPS', values: { fps: 10 } },
      ],
      [{ from: 'ball.video', to: 'fps.video_in' }],
    );
    const made = run.record('ball.video');
    const passed = run.record('fps.video_out');
    await eventually(() => expect(passed.length).toBeGreaterThanOrEqual(3), 20_000);
    const frames = made.filter(isVideoPacket);
    expect(frames[0]!.frame).toMatchObject({ width: 640, height: 480 });
    const firstFrame = frames[0]!.frame;
    // A black background with the white ball in the middle at the start.
    const centre = (240 * 640 + 320) * 4;
    expect([...firstFrame.rgba.subarray(centre, centre + 3)]).toEqual([255, 255, 255]);
    expect([...firstFrame.rgba.subarray(0, 3)]).toEqual([0, 0, 0]);
    expect(passed.every((value) => frames.includes(value as VideoFramePacket))).toBe(true);
    expect(new Set(passed).size).toBe(passed.length);
    const times = passed.map((value) => (value as VideoFramePacket).frame.timestampMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('passes nothing at fps 0', async () => {
    const run = start(
      [
        { id: 'ball', type: 'BouncingBall' },
        { id: 'fps', type: 'FPS', values: { fps: 0 } },
      ],
      [{ from: 'ball.video', to: 'fps.video_in' }],
    );
    const made = run.record('ball.video');
    const passed = run.record('fps.video_out');
    await eventually(() => expect(made.length).toBeGreaterThanOrEqual(10), 20_000);
    expect(passed).toEqual([]);
  });
});

describe('SlidingWindow and AVClipZip', () => {
  it('sends the window as an AV clip on flush (both inputs linked), bounded to window_size_s of audio, then starts empty', () => {
    const run = start(
      [
        { id: 'publish', type: 'Publish' },
        { id: 'window', type: 'SlidingWindow', values: { window_size_s: 2 } },
      ],
      [
        { from: 'publish.video', to: 'window.video' },
        { from: 'publish.audio', to: 'window.audio' },
      ],
    );
    const clips = run.record('window.clip');
    for (let index = 0; index < 3; index += 1) receive(run, 'window.video', packet(solidFrame(32, 24, [255, 0, 0], index * 100)));
    for (let index = 0; index < 3; index += 1) receive(run, 'window.audio', audioPacket(1));
    receive(run, 'window.flush', TRIGGER);
    receive(run, 'window.flush', TRIGGER);
    expect(clips).toHaveLength(2);
    const [first, second] = clips as [AVClip, AVClip];
    expect(first).toBeInstanceOf(AVClip);
    expect(first.video.frames).toHaveLength(3);
    expect(first.video.duration).toBeCloseTo(0.2);
    expect(first.audio.duration).toBeCloseTo(2);
    expect(second.video.frames).toHaveLength(0);
    expect(second.audio.duration).toBe(0);
    expect(JSON.parse(JSON.stringify(first))).toEqual({
      type: 'av_clip',
      video: { type: 'video_clip', frame_count: 3, duration: expect.closeTo(0.2) as number },
      audio: { type: 'audio_clip', transcription: null, duration: 2 },
    });
  });

  it('sends a video clip when only video is linked, and reset empties the window', () => {
    const run = start(
      [
        { id: 'publish', type: 'Publish' },
        { id: 'window', type: 'SlidingWindow' },
      ],
      [{ from: 'publish.video', to: 'window.video' }],
    );
    const clips = run.record('window.clip');
    receive(run, 'window.video', packet(solidFrame(8, 8, [0, 0, 255])));
    receive(run, 'window.reset', TRIGGER);
    receive(run, 'window.video', packet(solidFrame(8, 8, [0, 255, 0])));
    receive(run, 'window.flush', TRIGGER);
    expect(clips).toHaveLength(1);
    expect(clips[0]).toBeInstanceOf(VideoClip);
    expect(meanColour((clips[0] as VideoClip).frames[0]!)).toEqual([0, 255, 0]);
  });

  it('AVClipZip pairs one clip of each linked input', async () => {
    const run = start(
      [
        { id: 'publish', type: 'Publish' },
        { id: 'video', type: 'SlidingWindow' },
        { id: 'audio', type: 'SlidingWindow' },
        { id: 'zip', type: 'AVClipZip' },
      ],
      [
        { from: 'publish.video', to: 'video.video' },
        { from: 'publish.audio', to: 'audio.audio' },
        { from: 'video.clip', to: 'zip.video_clip' },
        { from: 'audio.clip', to: 'zip.audio_clip' },
      ],
    );
    const zipped = run.record('zip.av_clip');
    receive(run, 'video.video', packet(solidFrame(8, 8, [1, 2, 3])));
    receive(run, 'video.flush', TRIGGER);
    receive(run, 'audio.audio', audioPacket(0.5));
    receive(run, 'audio.flush', TRIGGER);
    await eventually(() => expect(zipped).toHaveLength(1));
    const clip = zipped[0] as AVClip;
    expect(clip.video.frames).toHaveLength(1);
    expect(clip.audio.duration).toBeCloseTo(0.5);
  });
});

describe('ContextMessageZip', () => {
  it('makes one message of a frame (a JPEG of its colour) and a text, in pad order', async () => {
    const run = start(
      [
        { id: 'publish', type: 'Publish' },
        { id: 'question', type: 'String' },
        { id: 'zip', type: 'ContextMessageZip', values: { num_contents: 2 } },
      ],
      [
        { from: 'question.changed', to: 'zip.content_0' },
        { from: 'publish.video', to: 'zip.content_1' },
      ],
    );
    const messages = run.record('zip.context_message');
    receive(run, 'zip.content_1', packet(solidFrame(64, 48, [200, 30, 40])));
    receive(run, 'question.set', 'What colour is this?');
    await eventually(() => expect(messages).toHaveLength(1));
    const message = GraphContextMessage.parse(messages[0]);
    expect(message.role.value).toBe('user');
    expect(message.content.map((item) => item.content_type)).toEqual(['text', 'image']);
    const image = message.content[1]!.image!;
    expect(image).toMatchObject({ width: 64, height: 48 });
    expect(image.url.startsWith('data:image/jpeg;base64,')).toBe(true);
    const decoded = await decodeJpeg(Buffer.from(image.url.split(',')[1]!, 'base64'));
    const [r, g, b] = meanColour(decoded);
    expect(Math.abs(r - 200) + Math.abs(g - 30) + Math.abs(b - 40)).toBeLessThan(20);
    // As the LLM node sends it: a text part and an image_url part.
    expect(chatMessagesOf([messages[0]], 32_768)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What colour is this?' },
          { type: 'image_url', image_url: { url: image.url } },
        ],
      },
    ]);
  });

  it('makes a video clip an MP4 video_url with sampled frames, and an AV clip its transcription too', async () => {
    const run = start(
      [
        { id: 'publish', type: 'Publish' },
        { id: 'zip', type: 'ContextMessageZip' },
      ],
      [{ from: 'publish.video', to: 'zip.content_0' }],
    );
    const messages = run.record('zip.context_message');
    const frames = Array.from({ length: 10 }, (_, index) => solidFrame(64, 48, [0, 0, 250], index * 100));
    const audio = new AudioClip(new Int16Array(48_000), 48_000, 'look at this');
    receive(run, 'zip.content_0', new AVClip(new VideoClip(frames), audio));
    await eventually(() => expect(messages).toHaveLength(1), 30_000);
    const message = GraphContextMessage.parse(messages[0]);
    expect(message.content.map((item) => item.content_type)).toEqual(['text', 'video']);
    const video = message.content[1]!.video!;
    expect(video).toMatchObject({ frame_count: 10, duration: 0.9 });
    expect(video.frames).toHaveLength(4);
    if (requireComponent('ffmpeg', hasFfmpeg, 'Debian ffmpeg encodes clips as MP4')) {
      expect(video.url?.startsWith('data:video/mp4;base64,')).toBe(true);
      const mp4 = Buffer.from(video.url!.split(',')[1]!, 'base64');
      expect(mp4.subarray(4, 8).toString()).toBe('ftyp');
      expect(chatMessagesOf([messages[0]], 32_768)[0]).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'look at this' },
          { type: 'video_url', video_url: { url: video.url } },
        ],
      });
    }
  });
});

describe('PublisherMetadata', () => {
  it("passes values on and sets value to the key of the run's publisher metadata", async () => {
    const run = start(
      [
        { id: 'text', type: 'String' },
        { id: 'meta', type: 'PublisherMetadata', values: { key: 'name' } },
      ],
      [{ from: 'text.changed', to: 'meta.sink' }],
      { publisherMetadata: { name: 'Ada' } },
    );
    const passed = run.record('meta.source');
    receive(run, 'text.set', 'hello');
    await eventually(() => expect(passed).toEqual(['hello']));
    expect(run.pad('meta.value')).toMatchObject({ value: 'Ada' });
  });
});

describe('LLMContext media limits', () => {
  it('keeps only the newest max_images pictures', () => {
    const image = (n: number) => ({ content_type: 'image' as const, text: null, image: { url: `data:image/jpeg;base64,${n}`, width: 1, height: 1 } });
    const message = (n: number): GraphContextMessage => ({
      type: 'context_message',
      role: { type: 'context_message_role', value: 'user' },
      content: [{ content_type: 'text', text: `m${n}` }, image(n)],
      tool_calls: [],
    });
    const kept = withNewestMedia([message(1), message(2), message(3)], 2, 2);
    expect(kept.map((item) => item.content.length)).toEqual([1, 2, 2]);
    expect(kept[0]!.content[0]!.text).toBe('m1');
  });
});

describe('LLM node with pictures', () => {
  const logger = pino({ level: 'silent' });
  let vision: FakeVisionUpstream;
  beforeAll(async () => {
    vision = await startFakeVisionUpstream();
  });
  afterAll(() => vision.close());

  /** A user's question and what the camera shows, zipped into the conversation an LLM answers. */
  function conversation(chat: GraphEngines['chat']): GraphKitRun {
    return start(
      [
        { id: 'publish', type: 'Publish' },
        { id: 'question', type: 'String' },
        { id: 'zip', type: 'ContextMessageZip', values: { num_contents: 2 } },
        { id: 'context', type: 'LLMContext' },
        { id: 'convert', type: 'AutoConvert' },
        { id: 'llm', type: 'OpenAICompatibleLLM' },
      ],
      [
        { from: 'question.changed', to: 'zip.content_0' },
        { from: 'publish.video', to: 'zip.content_1' },
        { from: 'zip.context_message', to: 'context.insert_0' },
        { from: 'context.source', to: 'llm.context' },
        { from: 'context.new_user_message', to: 'convert.sink' },
        { from: 'convert.source', to: 'llm.run_trigger' },
      ],
      { engines: { chat } },
    );
  }

  const answerOf = (run: GraphKitRun) => run.record('llm.context_message');
  const textOf = (message: unknown) => GraphContextMessage.parse(message).content[0]?.text;

  it('sends the frame as a JPEG image_url: a vision model answers its colour', async () => {
    const run = conversation(
      createLocalChat({ baseUrl: vision.baseUrl, model: '', addressPolicy: { allowLoopback: true, allowPrivateNetworks: true }, logger }),
    );
    const answers = answerOf(run);
    receive(run, 'zip.content_1', packet(solidFrame(160, 120, [220, 30, 30])));
    receive(run, 'question.set', 'What colour is this?');
    await eventually(() => expect(answers.map(textOf)).toEqual(['It is red.']), 20_000);
    expect(vision.requests.at(-1)!.partTypes).toEqual(['text', 'image_url']);
  });

  it('sends a clip as frames to a model that refuses video_url, and says so in the log', async () => {
    const run = conversation(
      createLocalChat({ baseUrl: vision.baseUrl, model: '', addressPolicy: { allowLoopback: true, allowPrivateNetworks: true }, logger }),
    );
    const answers = answerOf(run);
    const frames = Array.from({ length: 6 }, (_, index) => solidFrame(64, 48, [30, 60, 220], index * 500));
    receive(run, 'zip.content_1', new VideoClip(frames));
    receive(run, 'question.set', 'And now?');
    await eventually(() => expect(answers.map(textOf)).toEqual(['It is blue.']), 30_000);
    expect(vision.requests.at(-1)!.partTypes).toEqual(['text', 'image_url', 'image_url', 'image_url', 'image_url']);
    if (hasFfmpeg) expect(vision.requests.at(-2)!.partTypes).toEqual(['text', 'video_url']);
    if (hasFfmpeg) expect(run.logs.map((entry) => entry.message)).toContainEqual(expect.stringContaining('takes no video'));
  });

  it('the built-in offline model cannot see: the question is answered without the picture, and the log says why', async () => {
    const gateway = new ChatGateway({ resolveModel: () => Promise.resolve(createOfflineChatModel()), usageMeter: unmeteredUsage, logger });
    const run = conversation(gateway);
    const answers = answerOf(run);
    receive(run, 'zip.content_1', packet(solidFrame(32, 32, [0, 200, 0])));
    receive(run, 'question.set', 'What colour is this?');
    await eventually(() => expect(answers).toHaveLength(1), 20_000);
    expect(run.logs).toContainEqual(expect.objectContaining({ level: 'warning', message: expect.stringContaining('cannot see') as string }));
  });
});
