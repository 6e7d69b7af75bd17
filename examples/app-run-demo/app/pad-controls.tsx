import type { GraphNode } from '@palaver/sdk-core/graph';
import { PadControl, PadReading } from './pad-field.js';
import { shownPads } from './pad-values.js';

/**
 * The graph's pads as controls, node by node: what the visitor may set (the system prompt, the model, the
 * voice, ...) with Apply, and what the graph computes as values. Nodes with a text to set start open.
 */
export function PadControls({ nodes, connected }: { nodes: readonly GraphNode[]; connected: boolean }) {
  const groups = nodes.map((node) => ({ node, pads: shownPads(node) })).filter((group) => group.pads.length > 0);
  return (
    <section className="panel pads" aria-labelledby="pads-title">
      <h2 id="pads-title">Pads</h2>
      <p className="panel-hint">
        {connected ? 'Live values of the running graph. Change one, then Apply.' : 'The values a run starts with. Start the app to change them live.'}
      </p>
      {groups.map(({ node, pads }) => (
        <details key={node.id} className="pad-group" data-testid={`pads-${node.id}`} open={pads.some((pad) => pad.editable && pad.dataType === 'string')}>
          <summary>
            <strong>{node.id}</strong> <span className="node-type">{node.type}</span>
          </summary>
          {pads.map((shown) =>
            shown.editable ? <PadControl key={shown.pad} shown={shown} connected={connected} /> : <PadReading key={shown.pad} shown={shown} />,
          )}
        </details>
      ))}
    </section>
  );
}
