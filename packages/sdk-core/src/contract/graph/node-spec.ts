import type { GraphNode, PadKind } from './graph-document.js';
import type { PadConstraint, PadConstraints } from './pad-constraints.js';

/** One pad of a node type, as the catalogue declares it. */
export interface PadSpec {
  id: string;
  /** Editor grouping; defaults to the id. Repeated pads share one group. */
  group?: string;
  kind: PadKind;
  /** Allowed types; null takes any type (the pad follows what it is linked to). */
  types: PadConstraints;
  /** Initial value of a property pad, as a plain value (see `plainPadValue`). */
  default?: unknown;
  description?: string;
  /**
   * Pads whose type follows this one's (a Gate's `sink` and `source`): when one is linked, the others take
   * the same type.
   */
  follows?: string;
}

/**
 * Pads that repeat with a count held by an integer property pad: `{count: "num_inserts", pads: [{id:
 * "insert_{i}", ...}]}` yields `insert_0` .. `insert_{n-1}` (with `start: 1`, `input_1` .. `input_n`).
 */
export interface RepeatedPadsSpec {
  count: string;
  /** Index of the first copy (default 0). */
  start?: number;
  /** The count used when the graph holds none (the count pad's default). */
  min?: number;
  max?: number;
  pads: PadSpec[];
}

export interface NodeCategory {
  primary: string;
  secondary: string;
  tags: string[];
}

/**
 * A node type of the catalogue: what it does and its pads. The runtime builds nodes from it, validation
 * checks graphs against it, editors and clients read it (`nodeCatalogue`).
 */
export interface NodeSpec {
  type: string;
  description: string;
  category: NodeCategory;
  pads: PadSpec[];
  repeated?: RepeatedPadsSpec[];
  /**
   * Pads are not fixed: the node's pads come from elsewhere (a SubGraph's from its sub graph). Validation
   * then checks only the links.
   */
  dynamicPads?: boolean;
  /**
   * Pads that depend on the node's stored pads (an enum switch's one pad per option, a pad that becomes a
   * property pad when a property feeds it): given the stored node and the expanded pads, the pads it has.
   * Runtime and validation both read the node's pads through it.
   */
  resolvePads?: (node: GraphNode, pads: PadSpec[]) => PadSpec[];
}

/** Shorthands for catalogue entries. */
export const t = {
  string: (extra: Partial<PadConstraint> = {}): PadConstraint => ({ type: 'string', ...extra }),
  integer: (extra: Partial<PadConstraint> = {}): PadConstraint => ({ type: 'integer', ...extra }),
  float: (extra: Partial<PadConstraint> = {}): PadConstraint => ({ type: 'float', ...extra }),
  boolean: (): PadConstraint => ({ type: 'boolean' }),
  enumOf: (options?: string[]): PadConstraint => ({ type: 'enum', options: options ?? null }),
  secret: (): PadConstraint => ({ type: 'secret', options: [] }),
  trigger: (): PadConstraint => ({ type: 'trigger' }),
  audio: (): PadConstraint => ({ type: 'audio' }),
  video: (): PadConstraint => ({ type: 'video' }),
  audioClip: (): PadConstraint => ({ type: 'audio_clip' }),
  videoClip: (): PadConstraint => ({ type: 'video_clip' }),
  avClip: (): PadConstraint => ({ type: 'av_clip' }),
  viseme: (): PadConstraint => ({ type: 'viseme' }),
  textStream: (): PadConstraint => ({ type: 'text_stream' }),
  contextMessage: (): PadConstraint => ({ type: 'context_message' }),
  role: (): PadConstraint => ({ type: 'context_message_role' }),
  list: (items: PadConstraints = null, extra: Partial<PadConstraint> = {}): PadConstraint => ({ type: 'list', item_type_constraints: items, ...extra }),
  object: (): PadConstraint => ({ type: 'object' }),
  nodeReference: (nodeTypes: string[]): PadConstraint => ({ type: 'node_reference', node_types: nodeTypes }),
};

/** Pad spec shorthands: `propertySink('model', [t.string()], 'default')`. */
export const pad = {
  propertySink: (id: string, types: PadConstraints, defaultValue: unknown = null, extra: Partial<PadSpec> = {}): PadSpec => ({
    id,
    kind: 'PropertySinkPad',
    types,
    default: defaultValue,
    ...extra,
  }),
  propertySource: (id: string, types: PadConstraints, defaultValue: unknown = null, extra: Partial<PadSpec> = {}): PadSpec => ({
    id,
    kind: 'PropertySourcePad',
    types,
    default: defaultValue,
    ...extra,
  }),
  sink: (id: string, types: PadConstraints, extra: Partial<PadSpec> = {}): PadSpec => ({ id, kind: 'StatelessSinkPad', types, ...extra }),
  source: (id: string, types: PadConstraints, extra: Partial<PadSpec> = {}): PadSpec => ({ id, kind: 'StatelessSourcePad', types, ...extra }),
};

/** Every pad of a node type for a given count of each repetition (missing counts use the count pad's value or `min`). */
export function expandPads(spec: NodeSpec, counts: Record<string, number> = {}): PadSpec[] {
  const pads = [...spec.pads];
  for (const repeated of spec.repeated ?? []) {
    const countPad = spec.pads.find((candidate) => candidate.id === repeated.count);
    const fallback = typeof countPad?.default === 'number' ? countPad.default : (repeated.min ?? 0);
    let count = counts[repeated.count] ?? fallback;
    if (!Number.isInteger(count)) count = fallback;
    count = Math.max(repeated.min ?? 0, Math.min(repeated.max ?? 64, count));
    const start = repeated.start ?? 0;
    for (let index = start; index < start + count; index += 1) {
      for (const template of repeated.pads) {
        pads.push({
          ...template,
          id: template.id.replaceAll('{i}', String(index)),
          group: (template.group ?? template.id).replaceAll('{i}', String(index)),
          ...(template.follows ? { follows: template.follows.replaceAll('{i}', String(index)) } : {}),
        });
      }
    }
  }
  return pads;
}
