import type { PadKind } from '../../../contract/graph/graph-document.js';
import type { PadConstraints } from '../../../contract/graph/pad-constraints.js';
import { AsyncQueue } from '../../kernel/async-queue.js';

/** Items a stateless sink keeps for a consumer that lags; the oldest are dropped beyond it. */
const SINK_QUEUE_CAPACITY = 1000;

export type PadListener = (value: unknown, pad: RuntimePad) => void;

/** Who owns a pad (a node of a running graph). */
export interface PadOwner {
  readonly id: string;
  readonly type: string;
  /** The SubGraph node this node runs inside, if any (for logs). */
  readonly subgraph: string | undefined;
  /** A listener threw: the owner reports it without stopping the value's flow. */
  listenerFailed(pad: RuntimePad, error: unknown): void;
}

/**
 * A pad of a running node. Every value through it (set on a property pad, pushed or received on a stateless
 * one) reaches its listeners synchronously: the runtime API streams them to subscribed clients, nodes react
 * to them. Links are fixed when the graph is built.
 */
export abstract class RuntimePad {
  abstract readonly kind: PadKind;
  private readonly listeners = new Set<PadListener>();

  constructor(
    readonly owner: PadOwner,
    readonly id: string,
    readonly group: string,
    /** Allowed types (null: any). */
    readonly types: PadConstraints,
  ) {}

  get isSource(): boolean {
    return this.kind === 'PropertySourcePad' || this.kind === 'StatelessSourcePad';
  }

  get isProperty(): boolean {
    return this.kind === 'PropertySourcePad' || this.kind === 'PropertySinkPad';
  }

  /** Calls `listener` with every value through the pad; returns the unsubscribe function. */
  onValue(listener: PadListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected notify(value: unknown): void {
    for (const listener of this.listeners) {
      try {
        listener(value, this);
      } catch (error) {
        this.owner.listenerFailed(this, error);
      }
    }
  }

  toString(): string {
    return `${this.owner.id}.${this.id}`;
  }
}

/** A sink: at most one source feeds it. */
export abstract class RuntimeSinkPad extends RuntimePad {
  previous: RuntimeSourcePad | undefined;
  /** A value arrives from the linked source (or is pushed by a client). */
  abstract receive(value: unknown): void;
  /** No further values will arrive (the run stops). */
  close(): void {}
}

/** A property input: holds the latest value it was given. */
export class PropertySinkPad extends RuntimeSinkPad {
  readonly kind = 'PropertySinkPad' as const;
  constructor(
    owner: PadOwner,
    id: string,
    group: string,
    types: PadConstraints,
    public value: unknown,
  ) {
    super(owner, id, group, types);
  }

  receive(value: unknown): void {
    this.value = value;
    this.notify(value);
  }
}

/** An event or stream input: values queue for the node that iterates it. */
export class StatelessSinkPad extends RuntimeSinkPad implements AsyncIterable<unknown> {
  readonly kind = 'StatelessSinkPad' as const;
  private queue: AsyncQueue<unknown> | undefined;
  private closed = false;

  receive(value: unknown): void {
    this.notify(value);
    this.queue?.push(value);
  }

  override close(): void {
    this.closed = true;
    this.queue?.end();
  }

  /** Values from now on, until the run stops. One consumer per pad; listeners (`onValue`) see them too. */
  [Symbol.asyncIterator](): AsyncIterator<unknown> {
    if (!this.queue) {
      this.queue = new AsyncQueue<unknown>(SINK_QUEUE_CAPACITY);
      if (this.closed) this.queue.end();
    }
    return this.queue[Symbol.asyncIterator]();
  }
}

/** An output: pushes reach every linked sink, in link order. */
export abstract class RuntimeSourcePad extends RuntimePad {
  readonly next: RuntimeSinkPad[] = [];

  push(value: unknown): void {
    this.notify(value);
    for (const sink of this.next) sink.receive(value);
  }

  link(sink: RuntimeSinkPad): void {
    this.next.push(sink);
    sink.previous = this;
  }
}

/** A property output: holds its latest value and hands it to sinks linked later. */
export class PropertySourcePad extends RuntimeSourcePad {
  readonly kind = 'PropertySourcePad' as const;
  constructor(
    owner: PadOwner,
    id: string,
    group: string,
    types: PadConstraints,
    public value: unknown,
  ) {
    super(owner, id, group, types);
  }

  override push(value: unknown): void {
    this.value = value;
    super.push(value);
  }

  override link(sink: RuntimeSinkPad): void {
    super.link(sink);
    if (sink instanceof PropertySinkPad) sink.value = this.value;
  }
}

export class StatelessSourcePad extends RuntimeSourcePad {
  readonly kind = 'StatelessSourcePad' as const;
}

export function createPad(owner: PadOwner, kind: PadKind, id: string, group: string, types: PadConstraints, value: unknown): RuntimePad {
  switch (kind) {
    case 'PropertySinkPad':
      return new PropertySinkPad(owner, id, group, types, value);
    case 'PropertySourcePad':
      return new PropertySourcePad(owner, id, group, types, value);
    case 'StatelessSinkPad':
      return new StatelessSinkPad(owner, id, group, types);
    case 'StatelessSourcePad':
      return new StatelessSourcePad(owner, id, group, types);
  }
}
