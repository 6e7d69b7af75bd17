import { setTimeout as sleep } from 'node:timers/promises';
import type { NodeImplementation } from '../../runtime/graph-node.js';
import { BouncingBallScene, bounceTone } from './bouncing-ball.js';

const FRAME_SECONDS = 1 / 30;

/**
 * BouncingBall: synthetic media for trying a graph without a camera: 30 frames a second of a ball bouncing in a
 * 640x480 box (`video`), and a 20 ms 440 Hz tone (`audio`) at each bounce, when the background changes colour.
 * Frames are stamped with the scene's simulated time.
 */
export const bouncingBallNode: NodeImplementation = async (node, signal) => {
  const scene = new BouncingBallScene();
  let simulated = 0;
  const started = performance.now();
  while (!signal.aborted) {
    const bounced = scene.step(FRAME_SECONDS);
    simulated += FRAME_SECONDS * 1000;
    if (node.isLinked('video')) node.source('video').push({ kind: 'runtime:video', frame: scene.draw(simulated), origin: node.id });
    if (bounced && node.isLinked('audio'))
      node.source('audio').push({ kind: 'runtime:audio', frame: { samples: bounceTone(), sampleRate: 48_000, channels: 1 }, origin: node.id });
    const wait = Math.max(1, started + simulated - performance.now());
    await sleep(wait, undefined, { signal }).catch(() => undefined);
  }
};
