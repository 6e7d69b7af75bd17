import { z } from 'zod';
import { PAD_DATA_TYPES, type PadConstraint } from './pad-constraints.js';

/** A pad constraint as stored in graphs (see `PadConstraint`). */
export const PadConstraintSchema: z.ZodType<PadConstraint> = z.lazy(() =>
  z.looseObject({
    type: z.enum(PAD_DATA_TYPES),
    max_length: z.number().nullish(),
    min_length: z.number().nullish(),
    maximum: z.number().nullish(),
    minimum: z.number().nullish(),
    options: z.array(z.unknown()).nullish(),
    // Exported graphs sometimes hold empty items (`[{}]`): those are dropped.
    item_type_constraints: z
      .array(z.unknown())
      .nullish()
      .transform((items) => (items == null ? items : items.filter((item): item is PadConstraint => PadConstraintSchema.safeParse(item).success))),
    object_schema: z.record(z.string(), z.unknown()).nullish(),
    node_types: z.array(z.string()).optional(),
  }),
);

/** Identifier of a node or pad inside one graph. */
export const GraphNodeId = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'expected 1-128 characters of letters, digits, _ - . :');
/** Pad ids are names chosen in an editor (sub graph pads may hold spaces): 1-128 printable characters. */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
export const GraphPadId = z.string().regex(/^[^\u0000-\u001f]{1,128}$/, 'expected 1-128 printable characters');

/** The four kinds of pad: property pads hold a value, stateless pads carry events and streams. */
export const PAD_KINDS = ['PropertySourcePad', 'PropertySinkPad', 'StatelessSourcePad', 'StatelessSinkPad'] as const;
export const PadKind = z.enum(PAD_KINDS);
export type PadKind = z.infer<typeof PadKind>;

export const PadReference = z.object({ node: GraphNodeId, pad: GraphPadId }).meta({ id: 'GraphPadReference' });
export type PadReference = z.infer<typeof PadReference>;

const EditorPair = z.tuple([z.number(), z.number()]);

export const GraphPad = z
  .looseObject({
    id: GraphPadId,
    group: z.string().max(128).optional(),
    type: PadKind,
    default_allowed_types: z.array(PadConstraintSchema).nullish(),
    allowed_types: z.array(PadConstraintSchema).nullish(),
    /** The pad's value in the client format (`{type: "string", value: "hi"}`), or null. */
    value: z.unknown().optional(),
    next_pads: z.array(PadReference).max(1000).default([]),
    previous_pad: PadReference.nullish(),
    pad_links: z.array(z.unknown()).optional(),
  })
  .meta({ id: 'GraphPad', description: 'A typed input (sink) or output (source) of a node.' });
export type GraphPad = z.infer<typeof GraphPad>;

export const GraphNoteSchema = z.looseObject({ level: z.string().optional(), message: z.string().optional(), pad: z.string().nullish() });

export const GraphNode = z
  .looseObject({
    id: GraphNodeId,
    type: z.string().min(1).max(200).describe('Node type from the node catalogue, e.g. `STT`, `OpenAICompatibleLLM`.'),
    editor_name: z.string().max(200).optional(),
    editor_position: EditorPair.optional(),
    editor_dimensions: EditorPair.nullish(),
    description: z.string().max(10_000).nullish(),
    metadata: z.looseObject({}).nullish(),
    notes: z.array(GraphNoteSchema).optional(),
    pads: z.array(GraphPad).max(500).default([]),
  })
  .meta({ id: 'GraphNode', description: 'One node of an app graph with its pads and their links.' });
export type GraphNode = z.infer<typeof GraphNode>;

export const GraphPortal = z
  .looseObject({
    id: z.string().max(128),
    name: z.string().max(400).optional(),
    source_node: GraphNodeId,
    source_pad: GraphPadId,
    editor_position: EditorPair.optional(),
    ends: z.array(z.looseObject({ id: z.string().max(128), editor_position: EditorPair.optional(), next_pads: z.array(PadReference).default([]) })).default([]),
  })
  .meta({ id: 'GraphPortal', description: 'An editor shortcut drawing links of one source pad elsewhere; its links are also in `next_pads`.' });
export type GraphPortal = z.infer<typeof GraphPortal>;

/**
 * An app graph: nodes with typed pads linked source -> sink (`next_pads` on the source, `previous_pad` on the
 * sink), and editor portals. The format of the open engine of the system this API comes from, so graphs
 * exported from it load here.
 *
 * @example
 * const graph: GraphDocument = { nodes: [publish, output], portals: [] };
 */
export const GraphDocument = z
  .looseObject({
    nodes: z.array(GraphNode).max(2000).default([]),
    portals: z.array(GraphPortal).max(1000).default([]),
  })
  .meta({ id: 'GraphDocument', description: 'An app graph: `{nodes, portals}`.' });
export type GraphDocument = z.infer<typeof GraphDocument>;
export type GraphDocumentInput = z.input<typeof GraphDocument>;
