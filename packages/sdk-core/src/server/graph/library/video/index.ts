import type { NodeImplementation } from '../../runtime/graph-node.js';
import { avClipZipNode } from './av-clip-zip-node.js';
import { bouncingBallNode } from './bouncing-ball-node.js';
import { fpsNode } from './fps-node.js';
import { publisherMetadataNode } from './publisher-metadata-node.js';
import { slidingWindowNode } from './sliding-window-node.js';

export const videoImplementations: Record<string, NodeImplementation> = {
  FPS: fpsNode,
  SlidingWindow: slidingWindowNode,
  AVClipZip: avClipZipNode,
  PublisherMetadata: publisherMetadataNode,
  BouncingBall: bouncingBallNode,
};
