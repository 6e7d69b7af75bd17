/** The data types a pad can carry (the graph format's `allowed_types[].type`). */
export const PAD_DATA_TYPES = [
  'string',
  'integer',
  'float',
  'boolean',
  'enum',
  'secret',
  'trigger',
  'audio',
  'video',
  'audio_clip',
  'video_clip',
  'av_clip',
  'text_stream',
  'context_message',
  'context_message_role',
  'list',
  'object',
  'node_reference',
  'tool_definition',
  'viseme',
  'bounding_box',
  'point',
] as const;
export type PadDataType = (typeof PAD_DATA_TYPES)[number];

/**
 * One allowed type of a pad, with its optional bounds: `{type: "integer", minimum: 1}`,
 * `{type: "enum", options: ["a", "b"]}`, `{type: "list", item_type_constraints: [...]}`,
 * `{type: "node_reference", node_types: ["ToolGroup"]}`. Unknown extra fields are kept.
 */
export interface PadConstraint {
  type: PadDataType;
  max_length?: number | null;
  min_length?: number | null;
  maximum?: number | null;
  minimum?: number | null;
  options?: unknown[] | null;
  item_type_constraints?: PadConstraint[] | null;
  object_schema?: Record<string, unknown> | null;
  node_types?: string[];
  [extra: string]: unknown;
}

/** `null` means "any type" (a pad whose type follows what it is linked to). */
export type PadConstraints = PadConstraint[] | null;

function tighter(a: number | null | undefined, b: number | null | undefined, pick: (x: number, y: number) => number) {
  if (a == null) return b ?? null;
  if (b == null) return a;
  return pick(a, b);
}

function optionKey(option: unknown): string {
  return typeof option === 'object' && option !== null && 'id' in option ? String(option.id) : String(option);
}

/** The common part of two single constraints, or undefined when they cannot meet. */
export function intersectConstraint(a: PadConstraint, b: PadConstraint): PadConstraint | undefined {
  if (a.type !== b.type) return undefined;
  switch (a.type) {
    case 'string':
    case 'list':
      return {
        ...a,
        max_length: tighter(a.max_length, b.max_length, Math.min),
        min_length: tighter(a.min_length, b.min_length, Math.max),
        ...(a.type === 'list' ? { item_type_constraints: intersectConstraints(a.item_type_constraints ?? null, b.item_type_constraints ?? null) } : {}),
      };
    case 'integer':
    case 'float':
      return { ...a, maximum: tighter(a.maximum, b.maximum, Math.min), minimum: tighter(a.minimum, b.minimum, Math.max) };
    case 'enum':
    case 'secret': {
      if (!a.options || !b.options) return { ...a, options: a.options ?? b.options ?? null };
      const keys = new Set(b.options.map(optionKey));
      const common = a.options.filter((option) => keys.has(optionKey(option)));
      // Disjoint option lists still meet: the value is checked when it arrives.
      return { ...a, options: common.length > 0 ? common : null };
    }
    case 'node_reference': {
      if (!a.node_types || !b.node_types) return { ...a, node_types: a.node_types ?? b.node_types ?? [] };
      const types = new Set(b.node_types);
      const common = a.node_types.filter((type) => types.has(type));
      return common.length > 0 ? { ...a, node_types: common } : undefined;
    }
    default:
      return a;
  }
}

/**
 * What two pads linked together may carry: every pairwise meeting of their constraints. `null` (any type)
 * meets everything; an empty list means the pads cannot be linked.
 *
 * @example
 * intersectConstraints([{ type: 'string' }], [{ type: 'string' }, { type: 'trigger' }]); // [{ type: 'string', ... }]
 */
export function intersectConstraints(a: PadConstraints, b: PadConstraints): PadConstraints {
  if (a === null) return b;
  if (b === null) return a;
  const result: PadConstraint[] = [];
  for (const left of a) {
    for (const right of b) {
      const met = intersectConstraint(left, right);
      if (met) result.push(met);
    }
  }
  return result;
}

/** A short human-readable form of constraints, for error messages: `string | trigger`, `any`. */
export function describeConstraints(constraints: PadConstraints): string {
  if (constraints === null) return 'any';
  if (constraints.length === 0) return 'nothing';
  return constraints.map((constraint) => constraint.type).join(' | ');
}
