import pino from 'pino';
import type { GraphDocument } from '../contract/graph/graph-document.js';
export { graphOf, type KitLink, type KitNode } from '../server/graph/format/graph-builder.js';
import { platformNodeLibrary } from '../server/graph/library/node-library.js';
import { GraphRuntime } from '../server/graph/runtime/graph-runtime.js';
import type { NodeLibrary } from '../server/graph/runtime/node-library.js';
import type { GraphEngines, GraphRunEnvironment } from '../server/graph/runtime/run-environment.js';
import type { RunLogEntry } from '../server/graph/runtime/run-log.js';
import type { RuntimePad } from '../server/graph/runtime/pads.js';
import type { TurnMetrics } from '../server/kernel/ports/turn-metrics.js';
import { VoiceTurns } from '../server/voice/index.js';

/** A graph running without a room, its log and node failures recorded. */
export interface GraphKitRun {
  runtime: GraphRuntime;
  logs: RunLogEntry[];
  failures: { node: string; error: Error }[];
  /** The voice turns' measurements, as the room's `turn_metrics` topic would carry them. */
  turnMetrics: TurnMetrics[];
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
  options: { engines?: Partial<GraphEngines>; subgraphs?: Map<string, GraphDocument>; library?: NodeLibrary; publisherMetadata?: Record<string, unknown> } = {},
): GraphKitRun {
  const logs: RunLogEntry[] = [];
  const failures: { node: string; error: Error }[] = [];
  const logger = pino({ level: 'silent' });
  const turnMetrics: TurnMetrics[] = [];
  const environment: GraphRunEnvironment = {
    runId: 'run_test',
    principal: { project: 'project_test', kind: 'key', human: null, credentialId: 'key_test' },
    engines: {
      chat: { stream: () => Promise.reject(new Error('runGraph: no chat engine given')) },
      speech: {} as GraphEngines['speech'],
      ...options.engines,
    },
    logger,
    room: undefined,
    clientTools: undefined,
    publisherMetadata: options.publisherMetadata,
    voiceTurns: new VoiceTurns('run_test', (metrics) => turnMetrics.push(metrics), logger),
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
    turnMetrics,
    pad,
    record(path) {
      const values: unknown[] = [];
      pad(path).onValue((value) => values.push(value));
      return values;
    },
    stop: () => runtime.stop(),
  };
}
