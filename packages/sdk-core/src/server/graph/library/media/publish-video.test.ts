import { afterEach, describe, expect, it } from 'vitest';
import { graphOf, runGraph, type GraphKitRun } from '../../../../testing/graph-kit.js';
import type { RuntimeNode } from '../../runtime/graph-node.js';
import { PropertySinkPad } from '../../runtime/pads.js';
import { neededFrameRate } from './publish-video.js';

const runs: GraphKitRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.stop();
});

function publishNodeOf(nodes: Parameters<typeof graphOf>[0], links: Parameters<typeof graphOf>[1]): { run: GraphKitRun; publish: RuntimeNode } {
  const run = runGraph(graphOf([{ id: 'publish', type: 'Publish' }, ...nodes], links));
  runs.push(run);
  return { run, publish: run.pad('publish.video').owner as RuntimeNode };
}

describe('Publish.video decodes only what its readers need', () => {
  it('read by FPS nodes only: twice the fastest rate (at least 1, at most 30), following a rate set while running', () => {
    const { run, publish } = publishNodeOf(
      [
        { id: 'slow', type: 'FPS', values: { fps: 0.5 } },
        { id: 'fast', type: 'FPS', values: { fps: 4 } },
      ],
      [
        { from: 'publish.video', to: 'slow.video_in' },
        { from: 'publish.video', to: 'fast.video_in' },
      ],
    );
    expect(neededFrameRate(publish)).toBe(8);
    const fps = run.pad('fast.fps');
    if (!(fps instanceof PropertySinkPad)) throw new Error('fast.fps is not a property sink');
    fps.receive(0.25);
    expect(neededFrameRate(publish)).toBe(1);
    fps.receive(24);
    expect(neededFrameRate(publish)).toBe(30);
  });

  it('read by anything else, or by nothing: every frame', () => {
    expect(
      neededFrameRate(
        publishNodeOf(
          [
            { id: 'fps', type: 'FPS', values: { fps: 0.5 } },
            { id: 'window', type: 'SlidingWindow' },
          ],
          [
            { from: 'publish.video', to: 'fps.video_in' },
            { from: 'publish.video', to: 'window.video' },
          ],
        ).publish,
      ),
    ).toBeUndefined();
    expect(neededFrameRate(publishNodeOf([], []).publish)).toBeUndefined();
  });
});
