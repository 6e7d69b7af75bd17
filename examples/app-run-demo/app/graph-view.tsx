import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { nodeCatalogue, type GraphNode } from '@palaver/sdk-core/graph';
import { layoutGraph, type NodeBox, type PadPort } from './graph-layout.js';
import type { RunActivity } from './run-activity.js';

/** The kinds of link drawn apart, by the data they carry. */
const KINDS: Array<{ kind: string; label: string; types: string[] }> = [
  { kind: 'audio', label: 'audio', types: ['audio', 'audio_clip', 'video'] },
  { kind: 'text', label: 'text', types: ['string', 'text_stream'] },
  { kind: 'context', label: 'messages', types: ['context_message', 'list'] },
  { kind: 'trigger', label: 'events', types: ['trigger'] },
];

function kindOf(dataType: string): string {
  return KINDS.find((entry) => entry.types.includes(dataType))?.kind ?? 'other';
}

/** The node types at work in each activity: lit while it lasts. */
const AT_WORK: Record<RunActivity, string[]> = {
  listening: ['Publish'],
  hearing: ['Publish', 'STT'],
  thinking: ['LLMContext', 'OpenAICompatibleLLM'],
  speaking: ['OpenAICompatibleLLM', 'TTS', 'Output'],
};

const FONT = 'system-ui, -apple-system, "Segoe UI", sans-serif';

/** Text widths in the drawing's fonts, measured by the browser. */
function canvasMeasure(): (text: string, size: 'title' | 'pad') => number {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return (text, size) => text.length * (size === 'title' ? 7 : 5.8);
  return (text, size) => {
    context.font = size === 'title' ? `600 12px ${FONT}` : `10.5px ${FONT}`;
    return context.measureText(text).width;
  };
}

function Port({ port, side }: { port: PadPort; side: 'in' | 'out' }) {
  return (
    <g className={`port ${side} kind-${kindOf(port.dataType)}`} data-pad={port.id}>
      <circle cx={port.x} cy={port.y} r={3.5} />
      <text x={port.label.x} y={port.label.y} textAnchor={port.label.anchor}>
        {port.label.text}
      </text>
    </g>
  );
}

function NodeShape({ box, node, active }: { box: NodeBox; node: GraphNode; active: boolean }) {
  const description = nodeCatalogue[box.type]?.description;
  const padCount = node.pads.length;
  return (
    <g className={active ? 'node active' : 'node'} data-node={box.id} data-type={box.type}>
      <title>{`${box.id} (${box.type}), ${padCount} pads${description ? `\n${description}` : ''}`}</title>
      <rect x={box.x} y={box.y} width={box.width} height={box.height} rx={9} />
      <text className="node-title" x={box.title.x} y={box.title.y} textAnchor="middle">
        {box.title.text}
      </text>
      <text className="node-subtitle" x={box.subtitle.x} y={box.subtitle.y} textAnchor="middle">
        {box.subtitle.text}
      </text>
      {box.inputs.map((port) => (
        <Port key={`in:${port.id}`} port={port} side="in" />
      ))}
      {box.outputs.map((port) => (
        <Port key={`out:${port.id}`} port={port} side="out" />
      ))}
    </g>
  );
}

/**
 * The app's graph, drawn read-only from its nodes and links so the visitor sees what runs: layers left to
 * right on wide screens, top to bottom on phones; the nodes at work light up while the run listens,
 * thinks and speaks.
 */
export function GraphView({ nodes, activity }: { nodes: readonly GraphNode[]; activity: RunActivity | undefined }) {
  const frame = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = frame.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(Math.floor(element.clientWidth)));
    observer.observe(element);
    setWidth(Math.floor(element.clientWidth));
    return () => observer.disconnect();
  }, []);
  const measure = useMemo(() => canvasMeasure(), []);
  const layout = useMemo(() => (width > 0 ? layoutGraph(nodes, { width, measure }) : undefined), [nodes, width, measure]);
  const atWork = new Set(activity ? AT_WORK[activity] : []);
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const kinds = new Set(layout?.links.map((link) => kindOf(link.dataType)));

  return (
    <div className="graph-frame" ref={frame}>
      {layout && (
        <svg
          className={`graph ${layout.orientation}`}
          data-testid="graph"
          data-activity={activity}
          width={layout.width}
          height={layout.height}
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          role="img"
          aria-label={`The app's graph: ${layout.nodes.map((box) => box.id).join(', ')}`}
        >
          <g className="links">
            {layout.links.map((link) => (
              <path
                key={`${link.from.node}.${link.from.pad}->${link.to.node}.${link.to.pad}`}
                className={`link kind-${kindOf(link.dataType)} ${link.route}`}
                data-link={`${link.from.node}.${link.from.pad}->${link.to.node}.${link.to.pad}`}
                d={link.d}
              />
            ))}
          </g>
          {layout.nodes.map((box) => (
            <NodeShape key={box.id} box={box} node={byId.get(box.id)!} active={atWork.has(box.type)} />
          ))}
        </svg>
      )}
      <ul className="legend" aria-label="What the links carry">
        {KINDS.filter((entry) => kinds.has(entry.kind)).map((entry) => (
          <li key={entry.kind} className={`kind-${entry.kind}`}>
            <svg width="22" height="8" aria-hidden="true">
              <path className={`link kind-${entry.kind}`} d="M1,4 L21,4" />
            </svg>
            {entry.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
