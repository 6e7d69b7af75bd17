import pino from 'pino';
import { GraphDocument, type GraphDocumentInput, type GraphNode, type GraphPad } from '../contract/graph/graph-document.js';
import { expandPads } from '../contract/graph/node-spec.js';
import { nodeCatalogue } from '../contract/graph/node-catalogue.js';
import { clientPadValue } from '../contract/graph/pad-values.js';
import { platformNodeLibrary } from '../server/graph/library/node-library.js';
import { GraphRuntime } from '../server/graph/runtime/graph-runtime.js';
import type { NodeLibrary } from '../server/graph/runtime/node-library.js';
import type { GraphEngines, GraphRunEnvironment } from '../server/graph/runtime/run-environment.js';
import type { RunLogEntry } from '../server/graph/runtime/run-log.js';
import type { RuntimePad } from '../server/graph/runtime/pads.js';

/** A node for a test graph: its type, id and the property values to store (plain values). */
export interface KitNode {
  id: string;
  type: string;
  values?: Record<string, unknown>;
}

/** A link `from: 'node.pad'` -> `to: 'node.pad'`. */
export interface KitLink {
  from: string;
  to: string;
}

/**
 * Builds a graph document in the stored format from a compact description: each node's pads come from the
 * catalogue (with the given values), links fill `next_pads` and `previous_pad`.
 *
 * @example
 * const document = graphOf([{ id: 'a', type: 'String' }, { id: 'b', type: 'String' }], [{ from: 'a.value', to: 'b.set' }]);
 */
export function graphOf(nodes: KitNode[], links: KitLink[] = [], subgraphPads: Record<string, GraphPad[]> = {}): GraphDocument {
  const documents: GraphNode[] = nodes.map((node) => {
    const spec = nodeCatalogue[node.type];
    const counts = Object.fromEntries(Object.entries(node.values ?? {}).filter(([, value]) => typeof value === 'number')) as Record<string, number>;
    const pads: GraphPad[] = spec
      ? expandPads(spec, counts).map((declared) => {
          const value = node.values && Object.hasOwn(node.values, declared.id) ? node.values[declared.id] : declared.default;
          return {
            id: declared.id,
            group: declared.group ?? declared.id,
            type: declared.kind,
            default_allowed_types: declared.types,
            allowed_types: declared.types,
            value: declared.kind.startsWith('Property') ? (clientPadValue(value, declared.types) ?? null) : null,
            next_pads: [],
            previous_pad: null,
          };
        })
      : [];
    pads.push(...(subgraphPads[node.id] ?? []));
    return { id: node.id, type: node.type, editor_name: node.type, pads };
  });
  for (const link of links) {
    const [fromNode, fromPad] = link.from.split('.') as [string, string];
    const [toNode, toPad] = link.to.split('.') as [string, string];
    const source = documents.find((node) => node.id === fromNode)?.pads.find((pad) => pad.id === fromPad);
    const sink = documents.find((node) => node.id === toNode)?.pads.find((pad) => pad.id === toPad);
    if (!source || !sink) throw new Error(`graphOf: no pad for link ${link.from} -> ${link.to}`);
    source.next_pads.push({ node: toNode, pad: toPad });
    sink.previous_pad = { node: fromNode, pad: fromPad };
  }
  return GraphDocument.parse({ nodes: documents, portals: [] } satisfies GraphDocumentInput);
}

/** A graph running without a room, its log and node failures recorded. */
export interface GraphKitRun {
  runtime: GraphRuntime;
  logs: RunLogEntry[];
  failures: { node: string; error: Error }[];
  pad(path: string): RuntimePad;
  /** Every value through `path` from now on. */
  record(path: string): unknown[];
  stop(): Promise<void>;
}

/**
 * Runs a graph in process without media: for node tests. Engines default to the offline LLM answer and no
 * speech.
 *
 * @example
 * const run = runGraph(graphOf(nodes, links));
 * run.pad('a.set').receive('hi'); // as a client push
 * await run.stop();
 */
export function runGraph(
  document: GraphDocument,
  options: { engines?: Partial<GraphEngines>; subgraphs?: Map<string, GraphDocument>; library?: NodeLibrary } = {},
): GraphKitRun {
  const logs: RunLogEntry[] = [];
  const failures: { node: string; error: Error }[] = [];
  const logger = pino({ level: 'silent' });
  const environment: GraphRunEnvironment = {
    runId: 'run_test',
    principal: { project: 'project_test', kind: 'key', human: null, credentialId: 'key_test' },
    engines: {
      chat: { stream: () => Promise.reject(new Error('runGraph: no chat engine given')) },
      speech: {} as GraphEngines['speech'],
      ...options.engines,
    } as GraphEngines,
    logger,
    room: undefined,
    clientTools: undefined,
    publisherMetadata: undefined,
    log: (entry) => logs.push(entry),
    nodeFailed: (node, error) => failures.push({ node: node.id, error }),
  };
  const runtime = GraphRuntime.build({ document, subgraphs: options.subgraphs ?? new Map() }, options.library ?? platformNodeLibrary, environment);
  runtime.start();
  const pad = (path: string): RuntimePad => {
    const [nodeId, padId] = path.split('.') as [string, string];
    const found = runtime.pad(nodeId, padId);
    if (!found) throw new Error(`runGraph: no pad ${path}`);
    return found;
  };
  return {
    runtime,
    logs,
    failures,
    pad,
    record(path) {
      const values: unknown[] = [];
      pad(path).onValue((value) => values.push(value));
      return values;
    },
    stop: () => runtime.stop(),
  };
}
