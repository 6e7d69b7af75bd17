import type { GraphNode } from '@palaver/sdk-core/graph';
import { isSourcePad } from './app-graph.js';
import { graphLayers, graphLinks, type Link } from './graph-order.js';
import { assignLanes, rounded } from './graph-paths.js';

/**
 * A read-only drawing of an app graph, laid out in layers: every link goes from one layer to a later one,
 * except the few that close a loop (the LLM's answer back into its context). `across` puts the layers left
 * to right with inputs on a node's left edge and outputs on its right; `down` stacks them top to bottom
 * (phones) with inputs on the top edge and outputs on the bottom. Only linked pads are drawn.
 */
export type Orientation = 'across' | 'down';

export interface PadPort {
  id: string;
  dataType: string;
  /** Where the link meets the node. */
  x: number;
  y: number;
  /** Where the pad's name is written, and how it is anchored there. */
  label: { x: number; y: number; anchor: 'start' | 'middle' | 'end'; text: string };
}

export interface NodeBox {
  id: string;
  type: string;
  layer: number;
  x: number;
  y: number;
  width: number;
  height: number;
  title: { x: number; y: number; text: string };
  subtitle: { x: number; y: number; text: string };
  inputs: PadPort[];
  outputs: PadPort[];
}

export interface LinkPath {
  from: { node: string; pad: string };
  to: { node: string; pad: string };
  dataType: string;
  /** `next`: to the following layer; `skip`: past layers, along the side; `back`: closes a loop. */
  route: 'next' | 'skip' | 'back';
  d: string;
}

export interface GraphLayout {
  orientation: Orientation;
  width: number;
  height: number;
  nodes: NodeBox[];
  links: LinkPath[];
}

export interface LayoutOptions {
  /** The width to fill (the drawing's container). */
  width: number;
  /** The width of a text in the drawing's pad font (a canvas measure in the browser). */
  measure?: (text: string, size: 'title' | 'pad') => number;
}

const MARGIN = 8;
/** Between layers across: at least room for a curve, at most what still reads as one flow. */
const MIN_LAYER_GAP = 28;
const MAX_LAYER_GAP = 64;
const ROW_GAP_DOWN = 34;
const NODE_GAP = 16;
const MIN_NODE_WIDTH = 84;
/** How much wider than its words a node may grow to fill the space. */
const MAX_NODE_SLACK = 40;
const HEADER = 38;
const PAD_ROW = 15;
const PAD_STRIP = 18;
const LANE = 8;
const CHANNEL = 14;
const STEP = 10;

const roughMeasure = (text: string, size: 'title' | 'pad') => text.length * (size === 'title' ? 7 : 5.8);

/** The text, cut with an ellipsis when it is wider than `room`. */
function fit(text: string, room: number, size: 'title' | 'pad', measure: NonNullable<LayoutOptions['measure']>): string {
  if (measure(text, size) <= room) return text;
  let cut = text;
  while (cut.length > 1 && measure(`${cut}…`, size) > room) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * Lays the graph out for a container `width` wide: layers across when they fit at a readable size,
 * else down.
 *
 * @example
 * const layout = layoutGraph(graph.nodes, { width: 1200 });
 * layout.nodes.map((node) => node.id); // ['publish', 'stt', ...]
 */
export function layoutGraph(nodes: readonly GraphNode[], options: LayoutOptions): GraphLayout {
  const measure = options.measure ?? roughMeasure;
  const links = graphLinks(nodes);
  const ids = nodes.map((node) => node.id);
  const layers = graphLayers(ids, links);
  const layerCount = Math.max(0, ...layers.values()) + 1;

  // Which links skip layers or go back, and the lanes they take beside the nodes.
  const routeOf = (link: Link): LinkPath['route'] => {
    const from = layers.get(link.from.node)!;
    const to = layers.get(link.to.node)!;
    return to === from + 1 ? 'next' : to > from ? 'skip' : 'back';
  };
  const sideSpans = (route: 'skip' | 'back') =>
    links.flatMap((link, key) =>
      routeOf(link) === route
        ? [
            {
              key,
              low: Math.min(layers.get(link.from.node)!, layers.get(link.to.node)!),
              high: Math.max(layers.get(link.from.node)!, layers.get(link.to.node)!),
            },
          ]
        : [],
    );
  const skipLanes = assignLanes(sideSpans('skip'));
  const backLanes = assignLanes(sideSpans('back'));
  const laneRoom = (lanes: Map<number, number>) => (lanes.size === 0 ? 0 : CHANNEL + Math.max(...lanes.values()) * LANE + 4);
  const before = laneRoom(backLanes);
  const after = laneRoom(skipLanes);

  // The drawn pads of each node, in the node's own pad order.
  const ported = new Map(
    nodes.map((node) => {
      const pads = node.pads.filter((pad) =>
        links.some((link) => (link.from.node === node.id && link.from.pad === pad.id) || (link.to.node === node.id && link.to.pad === pad.id)),
      );
      const typeOf = (padId: string, end: 'from' | 'to') => links.find((link) => link[end].node === node.id && link[end].pad === padId)!.dataType;
      return [
        node.id,
        {
          inputs: pads.filter((pad) => !isSourcePad(pad)).map((pad) => ({ id: pad.id, dataType: typeOf(pad.id, 'to') })),
          outputs: pads.filter((pad) => isSourcePad(pad)).map((pad) => ({ id: pad.id, dataType: typeOf(pad.id, 'from') })),
        },
      ];
    }),
  );

  // Across when every layer is as wide as its words need, side by side; else down.
  const needed = (node: GraphNode) => {
    const { inputs, outputs } = ported.get(node.id)!;
    const words = [measure(node.id, 'title'), measure(node.type, 'pad'), ...[...inputs, ...outputs].map((pad) => measure(pad.id, 'pad') + 2)];
    return Math.max(MIN_NODE_WIDTH, Math.ceil(Math.max(...words) + 16));
  };
  const layerNeeds = Array.from({ length: layerCount }, (_, layer) =>
    Math.max(MIN_NODE_WIDTH, ...nodes.filter((node) => layers.get(node.id) === layer).map(needed)),
  );
  const spare = options.width - 2 * MARGIN - layerNeeds.reduce((sum, need) => sum + need, 0) - (layerCount - 1) * MIN_LAYER_GAP;
  const orientation: Orientation = spare >= 0 ? 'across' : 'down';

  // Nodes of a layer keep the order the graph's author gave them in the editor, else the graph's order.
  const editorCross = (node: GraphNode) => node.editor_position?.[1] ?? 0;
  const inLayer = Array.from({ length: layerCount }, (_, layer) =>
    nodes
      .map((node, index) => ({ node, index }))
      .filter(({ node }) => layers.get(node.id) === layer)
      .sort((a, b) => editorCross(a.node) - editorCross(b.node) || a.index - b.index)
      .map(({ node }) => node),
  );

  const boxes = new Map<string, NodeBox>();
  const makeBox = (node: GraphNode, x: number, y: number, width: number, height: number): NodeBox => {
    const { inputs, outputs } = ported.get(node.id)!;
    const box: NodeBox = {
      id: node.id,
      type: node.type,
      layer: layers.get(node.id)!,
      x,
      y,
      width,
      height,
      title: { x: 0, y: 0, text: fit(node.id, width - 16, 'title', measure) },
      subtitle: { x: 0, y: 0, text: fit(node.type, width - 16, 'pad', measure) },
      inputs: [],
      outputs: [],
    };
    if (orientation === 'across') {
      box.title = { ...box.title, x: x + width / 2, y: y + 17 };
      box.subtitle = { ...box.subtitle, x: x + width / 2, y: y + 31 };
      const row = (index: number) => y + HEADER + index * PAD_ROW + PAD_ROW / 2;
      box.inputs = inputs.map((pad, index) => ({
        ...pad,
        x,
        y: row(index),
        label: { x: x + 9, y: row(index) + 3.5, anchor: 'start', text: fit(pad.id, width - 14, 'pad', measure) },
      }));
      box.outputs = outputs.map((pad, index) => ({
        ...pad,
        x: x + width,
        y: row(inputs.length + index),
        label: { x: x + width - 9, y: row(inputs.length + index) + 3.5, anchor: 'end', text: fit(pad.id, width - 14, 'pad', measure) },
      }));
    } else {
      const top = inputs.length > 0 ? PAD_STRIP : 4;
      box.title = { ...box.title, x: x + width / 2, y: y + top + 15 };
      box.subtitle = { ...box.subtitle, x: x + width / 2, y: y + top + 29 };
      const spread = (count: number, index: number) => x + ((index + 0.5) * width) / count;
      box.inputs = inputs.map((pad, index) => ({
        ...pad,
        x: spread(inputs.length, index),
        y,
        label: { x: spread(inputs.length, index), y: y + 13, anchor: 'middle', text: fit(pad.id, width / inputs.length - 6, 'pad', measure) },
      }));
      box.outputs = outputs.map((pad, index) => ({
        ...pad,
        x: spread(outputs.length, index),
        y: y + height,
        label: { x: spread(outputs.length, index), y: y + height - 6, anchor: 'middle', text: fit(pad.id, width / outputs.length - 6, 'pad', measure) },
      }));
    }
    return box;
  };

  let width: number;
  let height: number;
  if (orientation === 'across') {
    // The spare width: half to the gaps, half to the nodes, each up to a limit; the drawing is centred.
    const gap = layerCount > 1 ? Math.min(MAX_LAYER_GAP, MIN_LAYER_GAP + spare / 2 / (layerCount - 1)) : 0;
    const grow = Math.min(MAX_NODE_SLACK, (spare - (gap - MIN_LAYER_GAP) * (layerCount - 1)) / layerCount);
    const layerWidths = layerNeeds.map((need) => Math.floor(need + grow));
    const layerX = layerWidths.map((_, layer) => MARGIN + layerWidths.slice(0, layer).reduce((sum, w) => sum + w + gap, 0));
    const heightOf = (id: string) => HEADER + (ported.get(id)!.inputs.length + ported.get(id)!.outputs.length) * PAD_ROW + 6;
    // Each node as near the middle of what feeds it as its layer allows.
    const centre = new Map<string, number>();
    for (const layerNodes of inLayer) {
      const wanted = layerNodes.map((node) => {
        const feeding = links.filter((link) => link.to.node === node.id && centre.has(link.from.node)).map((link) => centre.get(link.from.node)!);
        return feeding.length > 0 ? feeding.reduce((sum, value) => sum + value, 0) / feeding.length : undefined;
      });
      const known = wanted.filter((value): value is number => value !== undefined);
      const fallback = known.length > 0 ? known.reduce((sum, value) => sum + value, 0) / known.length : 0;
      let bottom = -Infinity;
      const placed = layerNodes.map((node, index) => {
        const h = heightOf(node.id);
        const top = Math.max((wanted[index] ?? fallback) - h / 2, bottom + NODE_GAP);
        bottom = top + h;
        return { node, top, h, wanted: wanted[index] ?? fallback };
      });
      const shift = placed.reduce((sum, entry) => sum + entry.wanted - (entry.top + entry.h / 2), 0) / Math.max(1, placed.length);
      for (const entry of placed) centre.set(entry.node.id, entry.top + shift + entry.h / 2);
    }
    const top = Math.min(...nodes.map((node) => centre.get(node.id)! - heightOf(node.id) / 2));
    for (const node of nodes) {
      const layer = layers.get(node.id)!;
      const h = heightOf(node.id);
      boxes.set(node.id, makeBox(node, layerX[layer]!, MARGIN + before + centre.get(node.id)! - h / 2 - top, layerWidths[layer]!, h));
    }
    width = layerX[layerCount - 1]! + layerWidths[layerCount - 1]! + MARGIN;
    height = Math.max(...[...boxes.values()].map((box) => box.y + box.height)) + after + MARGIN;
  } else {
    width = options.width;
    const room = width - 2 * MARGIN - before - after;
    let y = MARGIN;
    for (const layerNodes of inLayer) {
      const nodeWidth = (room - (layerNodes.length - 1) * NODE_GAP) / Math.max(1, layerNodes.length);
      const h = Math.max(
        ...layerNodes.map((node) => (ported.get(node.id)!.inputs.length > 0 ? PAD_STRIP : 4) + 36 + (ported.get(node.id)!.outputs.length > 0 ? PAD_STRIP : 4)),
      );
      layerNodes.forEach((node, index) => boxes.set(node.id, makeBox(node, MARGIN + before + index * (nodeWidth + NODE_GAP), y, nodeWidth, h)));
      y += h + ROW_GAP_DOWN;
    }
    height = y - ROW_GAP_DOWN + MARGIN;
  }

  // Links: a curve to the next layer; along a lane beside the nodes otherwise (skips after, loops before).
  const all = [...boxes.values()];
  const sideBefore = orientation === 'across' ? Math.min(...all.map((box) => box.y)) : Math.min(...all.map((box) => box.x));
  const sideAfter = orientation === 'across' ? Math.max(...all.map((box) => box.y + box.height)) : Math.max(...all.map((box) => box.x + box.width));
  const paths: LinkPath[] = links.map((link, key) => {
    const start = boxes.get(link.from.node)!.outputs.find((port) => port.id === link.from.pad)!;
    const end = boxes.get(link.to.node)!.inputs.find((port) => port.id === link.to.pad)!;
    const route = routeOf(link);
    let d: string;
    if (route === 'next') {
      d =
        orientation === 'across'
          ? `M${start.x},${start.y} C${(start.x + end.x) / 2},${start.y} ${(start.x + end.x) / 2},${end.y} ${end.x},${end.y}`
          : `M${start.x},${start.y} C${start.x},${(start.y + end.y) / 2} ${end.x},${(start.y + end.y) / 2} ${end.x},${end.y}`;
    } else {
      const lane = (route === 'skip' ? skipLanes : backLanes).get(key)!;
      const channel = route === 'skip' ? sideAfter + CHANNEL + lane * LANE : sideBefore - CHANNEL - lane * LANE;
      const step = STEP + lane * 3;
      d =
        orientation === 'across'
          ? rounded([
              [start.x, start.y],
              [start.x + step, start.y],
              [start.x + step, channel],
              [end.x - step, channel],
              [end.x - step, end.y],
              [end.x, end.y],
            ])
          : rounded([
              [start.x, start.y],
              [start.x, start.y + step],
              [channel, start.y + step],
              [channel, end.y - step],
              [end.x, end.y - step],
              [end.x, end.y],
            ]);
    }
    return { ...link, route, d };
  });

  return { orientation, width, height, nodes: ids.map((id) => boxes.get(id)!), links: paths };
}
