import type { GraphDocument, GraphNode as GraphNodeDocument } from '../../../contract/graph/graph-document.js';
import { plainPadValue } from '../../../contract/graph/pad-values.js';
import { RuntimeNode } from './graph-node.js';
import { storedPadValue } from './stored-value.js';
import { SUBGRAPH_ID_PAD, SUBGRAPH_NODE_TYPE, type NodeLibrary } from './node-library.js';
import { PropertySinkPad, PropertySourcePad, RuntimeSinkPad, RuntimeSourcePad, createPad, type RuntimePad } from './pads.js';
import type { GraphRunEnvironment } from './run-environment.js';
import { declaredPads, subgraphPorts } from './subgraph-interface.js';

/** A graph with the sub graphs its SubGraph nodes embed (by id), loaded ahead (validation did). */
export interface ResolvedGraph {
  document: GraphDocument;
  subgraphs: ReadonlyMap<string, GraphDocument>;
}

/** How long `stop` waits for node implementations to return after the abort. */
const STOP_GRACE_MS = 2000;

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * A graph being run: its nodes built from the library, their pads linked as the document says, every
 * node's implementation running concurrently. Nodes inside sub graphs run in nested runtimes bridged to the
 * SubGraph node's pads. A node that throws is reported and the rest keeps running.
 *
 * @example
 * const runtime = GraphRuntime.build({ document, subgraphs: new Map() }, library, environment);
 * runtime.start();
 * runtime.pad('string_1', 'set')?.receive('hello');
 * await runtime.stop();
 */
export class GraphRuntime {
  readonly nodes = new Map<string, RuntimeNode>();
  private readonly children: GraphRuntime[] = [];
  private readonly abort = new AbortController();
  private readonly running: Promise<void>[] = [];
  private readonly bridges: (() => void)[] = [];
  private started = false;

  private constructor(
    private readonly library: NodeLibrary,
    private readonly environment: GraphRunEnvironment,
    private readonly subgraphId: string | undefined,
  ) {}

  static build(resolved: ResolvedGraph, library: NodeLibrary, environment: GraphRunEnvironment): GraphRuntime {
    return GraphRuntime.buildLevel(resolved.document, resolved, library, environment, undefined, 0);
  }

  private static buildLevel(
    document: GraphDocument,
    resolved: ResolvedGraph,
    library: NodeLibrary,
    environment: GraphRunEnvironment,
    subgraph: string | undefined,
    depth: number,
  ): GraphRuntime {
    if (depth > 8) throw new Error('sub graphs nest deeper than 8 levels');
    const runtime = new GraphRuntime(library, environment, subgraph);
    for (const node of document.nodes) {
      if (node.type === SUBGRAPH_NODE_TYPE) runtime.addSubgraphNode(node, resolved, depth);
      else runtime.addNode(node);
    }
    runtime.link(document);
    return runtime;
  }

  private addNode(document: GraphNodeDocument): RuntimeNode {
    const spec = this.library.spec(document.type);
    const node = new RuntimeNode(document.id, document.type, spec, this.environment, this.subgraphId);
    for (const declared of declaredPads(document, this.library) ?? []) {
      const stored = document.pads.find((pad) => pad.id === declared.id);
      const storedValue = storedPadValue(stored?.value, declared.types);
      const value = storedValue ?? declared.default ?? null;
      node.addPad(createPad(node, declared.kind, declared.id, declared.group ?? declared.id, declared.types, value));
    }
    this.nodes.set(node.id, node);
    return node;
  }

  private addSubgraphNode(document: GraphNodeDocument, resolved: ResolvedGraph, depth: number): void {
    const node = new RuntimeNode(document.id, document.type, this.library.spec(SUBGRAPH_NODE_TYPE), this.environment, this.subgraphId);
    const subgraphId = plainPadValue(document.pads.find((pad) => pad.id === SUBGRAPH_ID_PAD)?.value);
    const inner = typeof subgraphId === 'string' ? resolved.subgraphs.get(subgraphId) : undefined;
    if (!inner) throw new Error(`node '${document.id}' (SubGraph): sub graph '${String(subgraphId)}' is not loaded`);
    node.addPad(new PropertySinkPad(node, SUBGRAPH_ID_PAD, 'subgraph', [{ type: 'string' }], subgraphId));
    const child = GraphRuntime.buildLevel(inner, resolved, this.library, this.environment, document.id, depth + 1);
    this.children.push(child);
    for (const port of subgraphPorts(inner, this.library)) {
      const stored = document.pads.find((pad) => pad.id === port.id);
      const storedValue = storedPadValue(stored?.value, port.types);
      const proxy = child.nodes.get(port.proxyNode)?.pad('proxy');
      const outer = createPad(node, port.kind, port.id, port.id, port.types, storedValue ?? null);
      node.addPad(outer);
      if (!proxy) continue;
      if (outer instanceof RuntimeSinkPad && proxy instanceof RuntimeSourcePad) {
        // Outside in: what reaches the SubGraph's sink is pushed from the proxy inside.
        this.bridges.push(outer.onValue((value) => proxy.push(value)));
        if (outer instanceof PropertySinkPad && storedValue !== undefined && proxy instanceof PropertySourcePad) proxy.value = storedValue;
      } else if (outer instanceof RuntimeSourcePad && proxy instanceof RuntimeSinkPad) {
        // Inside out: what reaches the proxy's sink leaves through the SubGraph's source.
        this.bridges.push(proxy.onValue((value) => outer.push(value)));
        if (outer instanceof PropertySourcePad && proxy instanceof PropertySinkPad) outer.value = proxy.value;
      }
    }
    this.nodes.set(node.id, node);
  }

  private link(document: GraphDocument): void {
    for (const nodeDocument of document.nodes) {
      const node = this.nodes.get(nodeDocument.id);
      if (!node) continue;
      for (const padDocument of nodeDocument.pads) {
        const source = node.pad(padDocument.id);
        if (!(source instanceof RuntimeSourcePad)) continue;
        for (const target of padDocument.next_pads) {
          const sink = this.nodes.get(target.node)?.pad(target.pad);
          if (sink instanceof RuntimeSinkPad && !source.next.includes(sink)) source.link(sink);
        }
      }
    }
  }

  /** A top-level pad by node and pad id. */
  pad(nodeId: string, padId: string): RuntimePad | undefined {
    return this.nodes.get(nodeId)?.pad(padId);
  }

  /** Every node, sub graphs' included (depth first). */
  *allNodes(): Generator<RuntimeNode> {
    yield* this.nodes.values();
    for (const child of this.children) yield* child.allNodes();
  }

  /** Starts every node's implementation (once). */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const child of this.children) child.start();
    // Property values given by the document reach linked sinks before anything runs.
    for (const node of this.nodes.values()) {
      for (const pad of node.pads.values()) {
        if (pad instanceof PropertySourcePad) for (const sink of pad.next) if (sink instanceof PropertySinkPad) sink.value = pad.value;
      }
    }
    for (const node of this.nodes.values()) {
      const implementation = node.type === SUBGRAPH_NODE_TYPE ? undefined : this.library.implementation(node.type);
      if (!implementation) continue;
      this.running.push(this.runNode(node, () => implementation(node, this.abort.signal)));
    }
  }

  private async runNode(node: RuntimeNode, run: () => void | Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      if (this.abort.signal.aborted) return;
      const failure = toError(error);
      node.log('error', `node failed: ${failure.message}`);
      this.environment.nodeFailed(node, failure);
    }
  }

  /** Aborts every node, ends their inputs and waits (bounded) for them to return. */
  async stop(): Promise<void> {
    this.abort.abort();
    for (const unlink of this.bridges.splice(0)) unlink();
    for (const node of this.nodes.values()) for (const pad of node.pads.values()) if (pad instanceof RuntimeSinkPad) pad.close();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.running, ...this.children.map((child) => child.stop())]),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, STOP_GRACE_MS);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }
}
