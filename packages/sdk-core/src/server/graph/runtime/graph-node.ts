import type { NodeSpec } from '../../../contract/graph/node-spec.js';
import type { GraphRunEnvironment } from './run-environment.js';
import type { RunLogEntry } from './run-log.js';
import { PropertySinkPad, PropertySourcePad, type PadOwner, type RuntimePad, StatelessSinkPad, StatelessSourcePad } from './pads.js';

/** A pad's id does not name a pad of the kind asked for: a library bug, not a user error. */
export class PadLookupError extends Error {
  override name = 'PadLookupError';
}

/**
 * A node of a running graph: its pads and what it needs from the run. Node implementations receive it and
 * read or push through typed pad accessors.
 */
export class RuntimeNode implements PadOwner {
  readonly pads = new Map<string, RuntimePad>();

  constructor(
    readonly id: string,
    readonly type: string,
    readonly spec: NodeSpec | undefined,
    readonly environment: GraphRunEnvironment,
    /** The SubGraph node this node runs inside (for logs and ids), if any. */
    readonly subgraph: string | undefined,
  ) {}

  addPad(pad: RuntimePad): void {
    this.pads.set(pad.id, pad);
  }

  pad(id: string): RuntimePad | undefined {
    return this.pads.get(id);
  }

  private typed<P extends RuntimePad>(id: string, kind: abstract new (...args: never[]) => P): P {
    const found = this.pads.get(id);
    if (!(found instanceof kind)) throw new PadLookupError(`node '${this.id}' (${this.type}) has no ${kind.name} '${id}'`);
    return found;
  }

  propertySink(id: string): PropertySinkPad {
    return this.typed(id, PropertySinkPad);
  }

  propertySource(id: string): PropertySourcePad {
    return this.typed(id, PropertySourcePad);
  }

  sink(id: string): StatelessSinkPad {
    return this.typed(id, StatelessSinkPad);
  }

  source(id: string): StatelessSourcePad {
    return this.typed(id, StatelessSourcePad);
  }

  /** The value of a property pad (sink or source); undefined when there is no such pad. */
  value(id: string): unknown {
    const found = this.pads.get(id);
    return found instanceof PropertySinkPad || found instanceof PropertySourcePad ? found.value : undefined;
  }

  /** Pads whose id starts with `prefix` followed by a number, ordered by that number (`insert_0`, `insert_1`...). */
  numbered<P extends RuntimePad>(prefix: string, kind: abstract new (...args: never[]) => P): P[] {
    const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\d+)$`);
    return [...this.pads.values()]
      .map((candidate) => ({ candidate, match: pattern.exec(candidate.id) }))
      .filter((entry): entry is { candidate: P; match: RegExpExecArray } => entry.match !== null && entry.candidate instanceof kind)
      .sort((a, b) => Number(a.match[1]) - Number(b.match[1]))
      .map((entry) => entry.candidate);
  }

  /** Whether a pad has a link (a sink its input, a source any output). */
  isLinked(id: string): boolean {
    const found = this.pads.get(id);
    if (!found) return false;
    if (found instanceof StatelessSourcePad || found instanceof PropertySourcePad) return found.next.length > 0;
    return (found as { previous?: unknown }).previous !== undefined;
  }

  log(level: RunLogEntry['level'], message: string, pad?: string): void {
    this.environment.log({ level, message, timestamp: new Date().toISOString(), node: this.id, subgraph: this.subgraph, pad });
  }

  listenerFailed(pad: RuntimePad, error: unknown): void {
    this.log('error', `a listener of pad '${pad.id}' failed: ${error instanceof Error ? error.message : String(error)}`, pad.id);
  }
}

/**
 * What a node type does while the run lasts. It returns (or its promise settles) when the node has
 * nothing more to do; `signal` aborts when the run stops. A throw is reported on the run's log and to the
 * humans in the room; the other nodes keep running.
 *
 * @example
 * const gate: NodeImplementation = async (node, signal) => {
 *   for await (const value of node.sink('sink')) if (node.value('open') === true) node.source('source').push(value);
 * };
 */
export type NodeImplementation = (node: RuntimeNode, signal: AbortSignal) => void | Promise<void>;
