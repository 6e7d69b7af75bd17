import { expandPads, type NodeSpec } from '../../../contract/graph/node-spec.js';
import { describeConstraints } from '../../../contract/graph/pad-constraints.js';
import { nodeCatalogue } from '../../../contract/graph/node-catalogue.js';
import { escapeHtml, inlineText } from './docs-schema.js';

function padRows(spec: NodeSpec): string {
  return expandPads(spec)
    .map((pad) => {
      const value = pad.default === undefined || pad.default === null ? '' : `<code>${escapeHtml(JSON.stringify(pad.default).slice(0, 60))}</code>`;
      return `<tr><td><code>${escapeHtml(pad.id)}</code></td><td>${escapeHtml(pad.kind.replace('Pad', ''))}</td><td>${escapeHtml(describeConstraints(pad.types))}</td><td>${value}</td><td>${inlineText(pad.description ?? '')}</td></tr>`;
    })
    .join('');
}

function repeatedNote(spec: NodeSpec): string {
  return (spec.repeated ?? [])
    .map(
      (repeated) =>
        `<p class="muted">Repeated by <code>${escapeHtml(repeated.count)}</code>: ${repeated.pads.map((pad) => `<code>${escapeHtml(pad.id)}</code>`).join(', ')} (shown for the default count).</p>`,
    )
    .join('');
}

/**
 * The docs page's node catalogue: every node type apps can use, with its pads (kind, types, default) and
 * what it does, from `nodeCatalogue`.
 */
export function renderNodeCatalogue(): string {
  const entries = Object.values(nodeCatalogue)
    .sort((a, b) => a.category.primary.localeCompare(b.category.primary) || a.type.localeCompare(b.type))
    .map(
      (spec) =>
        `<details class="schema-def" id="node-${escapeHtml(spec.type)}" data-search="${escapeHtml(`node ${spec.type} ${spec.category.secondary} ${spec.category.tags.join(' ')}`.toLowerCase())}"><summary>${escapeHtml(spec.type)} <span class="muted">${escapeHtml(spec.category.primary)} / ${escapeHtml(spec.category.secondary)}</span></summary><p>${inlineText(spec.description)}</p>${repeatedNote(spec)}${spec.dynamicPads ? '<p class="muted">Further pads come from its sub graph: one per proxy node, named by its <code>pad_id</code>.</p>' : ''}${spec.resolvePads ? '<p class="muted">Its pads depend on the node as stored (see above): the table shows them before that.</p>' : ''}<table><thead><tr><th>Pad</th><th>Kind</th><th>Types</th><th>Default</th><th></th></tr></thead><tbody>${padRows(spec)}</tbody></table></details>`,
    )
    .join('\n');
  return `<section id="node-catalogue"><h2>App graph nodes</h2><p class="muted">${Object.keys(nodeCatalogue).length} node types. Graphs are <code>{nodes, portals}</code>; a link goes from a source pad's <code>next_pads</code> to a sink's <code>previous_pad</code>, between pads whose types meet. Also exported as <code>nodeCatalogue</code> by <code>@palaver/sdk-core/graph</code>.</p>${entries}</section>`;
}
