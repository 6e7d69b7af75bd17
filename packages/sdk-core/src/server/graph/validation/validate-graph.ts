import type { GraphDocument, GraphNode, GraphPad, PadKind } from '../../../contract/graph/graph-document.js';
import type { PadSpec } from '../../../contract/graph/node-spec.js';
import { describeConstraints, intersectConstraints, type PadConstraints } from '../../../contract/graph/pad-constraints.js';
import { plainPadValue } from '../../../contract/graph/pad-values.js';
import { SUBGRAPH_ID_PAD, SUBGRAPH_NODE_TYPE, type NodeLibrary } from '../runtime/node-library.js';
import { declaredPads, subgraphPorts } from '../runtime/subgraph-interface.js';
import { storedPadValue } from '../runtime/stored-value.js';
import type { GraphIssue } from './graph-issues.js';
import { padValueFits } from './pad-value-check.js';
import { settingProblem } from './node-settings.js';

/** Deepest nesting of sub graphs a graph may have. */
export const MAX_SUBGRAPH_DEPTH = 8;

interface KnownPad {
  kind: PadKind;
  types: PadConstraints;
  /** Types are not checked for this pad (a SubGraph's pads whose inner pad takes any type). */
  loose: boolean;
}

function isSource(kind: PadKind): boolean {
  return kind === 'PropertySourcePad' || kind === 'StatelessSourcePad';
}

/** The pads a node has, as the library (or its sub graph) declares them; undefined when its type is unknown. */
function knownPads(node: GraphNode, library: NodeLibrary, subgraphs: ReadonlyMap<string, GraphDocument>): Map<string, KnownPad> | undefined {
  if (node.type === SUBGRAPH_NODE_TYPE) {
    const pads = new Map<string, KnownPad>([[SUBGRAPH_ID_PAD, { kind: 'PropertySinkPad', types: [{ type: 'string' }], loose: false }]]);
    const id = plainPadValue(node.pads.find((pad) => pad.id === SUBGRAPH_ID_PAD)?.value);
    const inner = typeof id === 'string' ? subgraphs.get(id) : undefined;
    for (const port of inner ? subgraphPorts(inner, library) : []) pads.set(port.id, { kind: port.kind, types: port.types, loose: port.types === null });
    return pads;
  }
  const declared: PadSpec[] | undefined = declaredPads(node, library);
  return declared && new Map(declared.map((pad) => [pad.id, { kind: pad.kind, types: pad.types, loose: pad.types === null }]));
}

/**
 * Everything wrong with a graph, each issue naming its node and pad: unknown node types and pads, pads of
 * the wrong kind, values of the wrong type, links to missing nodes or pads, links between pads whose types
 * do not meet, sinks with two inputs, `next_pads` and `previous_pad` that disagree, portals naming missing
 * pads, sub graphs that are missing. Sub graph cycles are found while resolving (`resolveSubgraphs`).
 *
 * @example
 * const issues = validateGraph(document, subgraphs, platformNodeLibrary);
 * if (issues.length > 0) throw graphInvalid('graph', issues);
 */
export function validateGraph(document: GraphDocument, subgraphs: ReadonlyMap<string, GraphDocument>, library: NodeLibrary): GraphIssue[] {
  const issues: GraphIssue[] = [];
  const nodes = new Map<string, GraphNode>();
  const pads = new Map<string, Map<string, KnownPad>>();
  for (const node of document.nodes) {
    if (nodes.has(node.id)) {
      issues.push({ node: node.id, message: 'two nodes have this id' });
      continue;
    }
    nodes.set(node.id, node);
    const known = knownPads(node, library, subgraphs);
    if (!known) {
      issues.push({ node: node.id, message: `unknown node type '${node.type}'` });
      continue;
    }
    if (node.type === SUBGRAPH_NODE_TYPE) {
      const id = plainPadValue(node.pads.find((pad) => pad.id === SUBGRAPH_ID_PAD)?.value);
      if (typeof id !== 'string' || id === '') issues.push({ node: node.id, pad: SUBGRAPH_ID_PAD, message: 'names no sub graph' });
      else if (!subgraphs.has(id)) issues.push({ node: node.id, pad: SUBGRAPH_ID_PAD, message: `no sub graph '${id}'` });
    }
    pads.set(node.id, known);
    const seen = new Set<string>();
    for (const pad of node.pads) {
      if (seen.has(pad.id)) issues.push({ node: node.id, pad: pad.id, message: 'two pads have this id' });
      seen.add(pad.id);
      const declared = known.get(pad.id);
      if (!declared) {
        issues.push({ node: node.id, pad: pad.id, message: `a ${node.type} node has no pad '${pad.id}'` });
        continue;
      }
      if (declared.kind !== pad.type) issues.push({ node: node.id, pad: pad.id, message: `is a ${declared.kind}, not a ${pad.type}` });
      const value = storedPadValue(pad.value, declared.types) ?? null;
      if (declared.kind.startsWith('Property') && !padValueFits(value, declared.types)) {
        issues.push({
          node: node.id,
          pad: pad.id,
          message: `value ${JSON.stringify(pad.value).slice(0, 80)} is not of type ${describeConstraints(declared.types)}`,
        });
      } else if (declared.kind.startsWith('Property')) {
        const problem = settingProblem(node.type, pad.id, value);
        if (problem) issues.push({ node: node.id, pad: pad.id, message: problem });
      }
    }
  }
  const inputs = new Map<string, string>();
  for (const node of document.nodes) {
    const known = pads.get(node.id);
    if (!known) continue;
    for (const pad of node.pads) {
      const declared = known.get(pad.id);
      if (!declared) continue;
      checkLinks(node, pad, declared, nodes, pads, inputs, issues);
    }
  }
  for (const portal of document.portals) {
    const source = pads.get(portal.source_node)?.get(portal.source_pad);
    if (!source || !isSource(source.kind))
      issues.push({ node: portal.source_node, pad: portal.source_pad, message: `portal '${portal.id}' starts at no source pad` });
  }
  return issues;
}

function checkLinks(
  node: GraphNode,
  pad: GraphPad,
  declared: KnownPad,
  nodes: ReadonlyMap<string, GraphNode>,
  pads: ReadonlyMap<string, Map<string, KnownPad>>,
  inputs: Map<string, string>,
  issues: GraphIssue[],
): void {
  if (!isSource(declared.kind)) {
    if (pad.next_pads.length > 0) issues.push({ node: node.id, pad: pad.id, message: 'a sink has no next_pads' });
    if (pad.previous_pad) {
      const source = nodes.get(pad.previous_pad.node)?.pads.find((candidate) => candidate.id === pad.previous_pad!.pad);
      if (!source || !source.next_pads.some((next) => next.node === node.id && next.pad === pad.id)) {
        issues.push({
          node: node.id,
          pad: pad.id,
          message: `previous_pad ${pad.previous_pad.node}.${pad.previous_pad.pad} does not list this pad in its next_pads`,
        });
      }
    }
    return;
  }
  if (pad.previous_pad) issues.push({ node: node.id, pad: pad.id, message: 'a source has no previous_pad' });
  for (const next of pad.next_pads) {
    const target = `${next.node}.${next.pad}`;
    const targetNode = nodes.get(next.node);
    if (!targetNode) {
      issues.push({ node: node.id, pad: pad.id, message: `links to a missing node '${next.node}'` });
      continue;
    }
    const targetPad = pads.get(next.node)?.get(next.pad);
    if (!targetPad) {
      if (pads.has(next.node)) issues.push({ node: node.id, pad: pad.id, message: `links to a missing pad ${target}` });
      continue;
    }
    if (isSource(targetPad.kind)) {
      issues.push({ node: node.id, pad: pad.id, message: `links to ${target}, which is not a sink` });
      continue;
    }
    const previous = inputs.get(target);
    if (previous && previous !== `${node.id}.${pad.id}`) {
      issues.push({ node: next.node, pad: next.pad, message: `has two inputs (${previous} and ${node.id}.${pad.id}); a sink takes one` });
    }
    inputs.set(target, `${node.id}.${pad.id}`);
    const stored = targetNode.pads.find((candidate) => candidate.id === next.pad);
    if (!stored?.previous_pad || stored.previous_pad.node !== node.id || stored.previous_pad.pad !== pad.id) {
      issues.push({ node: next.node, pad: next.pad, message: `previous_pad does not name ${node.id}.${pad.id}, which lists it in next_pads` });
    }
    if (!declared.loose && !targetPad.loose) {
      const met = intersectConstraints(declared.types, targetPad.types);
      if (met !== null && met.length === 0) {
        issues.push({
          node: node.id,
          pad: pad.id,
          message: `cannot link to ${target}: ${describeConstraints(declared.types)} does not meet ${describeConstraints(targetPad.types)}`,
        });
      }
    }
  }
}
