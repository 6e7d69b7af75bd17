import { z } from 'zod';

/** A JSON Schema (draft 2020-12) node as produced by `z.toJSONSchema`. */
export type JsonSchema = { [key: string]: unknown };

/** Which side of a schema to describe: request bodies accept the input form, responses return the output form. */
export type SchemaSide = 'input' | 'output';

const LOCAL_PREFIX = '#/$defs/';
const COMPONENT_PREFIX = '#/components/schemas/';

/** JSON with object keys sorted, so two conversions of the same shape compare equal. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function shortHash(text: string): string {
  // FNV-1a: only needs to be stable and collision-poor across a few anonymous cycle schemas.
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

function visitRefs(node: unknown, visit: (holder: JsonSchema) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) visitRefs(item, visit);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const holder = node as JsonSchema;
  if (typeof holder.$ref === 'string') visit(holder);
  for (const value of Object.values(holder)) visitRefs(value, visit);
}

function localRefs(node: unknown): Set<string> {
  const found = new Set<string>();
  visitRefs(node, (holder) => {
    const reference = holder.$ref as string;
    if (reference.startsWith(LOCAL_PREFIX)) found.add(reference.slice(LOCAL_PREFIX.length));
  });
  return found;
}

/**
 * Output-form objects get `additionalProperties: false` from zod because parsing strips unknown keys.
 * Responses are documented as open instead, so clients keep working when fields are added later, and
 * so that a schema whose input and output forms are otherwise equal stays one component.
 */
function openObjects(context: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const definition = (context.zodSchema as { _zod: { def: { type: string; catchall?: unknown } } })._zod.def;
  if (definition.type === 'object' && definition.catchall === undefined && context.jsonSchema.additionalProperties === false) {
    delete context.jsonSchema.additionalProperties;
  }
}

/**
 * Converts contract schemas to JSON Schema and gathers every schema registered with `.meta({ id })`
 * as an OpenAPI component. Call {@link SchemaCollector.finish} once all operations are added: it
 * names the components (`<id>` or, when a schema's input form differs from its output form,
 * `<id>Input` for the input form) and rewrites the references in everything handed out.
 */
export class SchemaCollector {
  private readonly definitions: Record<SchemaSide, Map<string, JsonSchema>> = { input: new Map(), output: new Map() };
  private readonly handedOut: Array<{ side: SchemaSide; schema: JsonSchema }> = [];
  readonly problems: string[] = [];

  /** The JSON Schema of `schema` for one side; references are final once `finish()` ran. */
  add(schema: z.core.$ZodType, side: SchemaSide, where: string): JsonSchema {
    const converted = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io: side,
      unrepresentable: 'any',
      ...(side === 'output' ? { override: openObjects } : {}),
    }) as JsonSchema;
    const { $schema: _dialect, $defs: definitions = {}, ...root } = converted as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const renames = new Map<string, string>();
    for (const [name, definition] of Object.entries(definitions)) {
      // Unnamed definitions only appear for recursive schemas without an id; zod numbers them per
      // conversion, so they are renamed by content to stay unique across the whole document.
      if (name.startsWith('__schema')) renames.set(name, `Schema${shortHash(canonicalJson(definition))}`);
    }
    const renameLocal = (node: unknown) =>
      visitRefs(node, (holder) => {
        const target = (holder.$ref as string).slice(LOCAL_PREFIX.length);
        const renamed = renames.get(target);
        if (renamed) holder.$ref = `${LOCAL_PREFIX}${renamed}`;
      });
    renameLocal(root);
    for (const [name, definition] of Object.entries(definitions)) {
      renameLocal(definition);
      const finalName = renames.get(name) ?? name;
      const known = this.definitions[side].get(finalName);
      if (known && canonicalJson(known) !== canonicalJson(definition)) {
        this.problems.push(`Two different schemas share the id '${finalName}' (${side} form; seen again at ${where})`);
        continue;
      }
      this.definitions[side].set(finalName, definition);
    }
    this.handedOut.push({ side, schema: root });
    return root;
  }

  /** Names the components, rewrites every `#/$defs/` reference, and answers `components.schemas`. */
  finish(): Record<string, JsonSchema> {
    const differing = new Set<string>();
    for (const [name, inputForm] of this.definitions.input) {
      const outputForm = this.definitions.output.get(name);
      if (outputForm && canonicalJson(outputForm) !== canonicalJson(inputForm)) differing.add(name);
    }
    // A schema that embeds a differing schema differs too, since its input form must point at `<id>Input`.
    let grew = true;
    while (grew) {
      grew = false;
      for (const [name, inputForm] of this.definitions.input) {
        if (differing.has(name) || !this.definitions.output.has(name)) continue;
        if ([...localRefs(inputForm)].some((target) => differing.has(target))) {
          differing.add(name);
          grew = true;
        }
      }
    }

    const componentName = (side: SchemaSide, name: string) => (side === 'input' && differing.has(name) ? `${name}Input` : name);
    const rewrite = (side: SchemaSide, node: unknown) =>
      visitRefs(node, (holder) => {
        const reference = holder.$ref as string;
        if (reference.startsWith(LOCAL_PREFIX)) holder.$ref = `${COMPONENT_PREFIX}${componentName(side, reference.slice(LOCAL_PREFIX.length))}`;
      });

    const components: Record<string, JsonSchema> = {};
    for (const side of ['output', 'input'] as const) {
      for (const [name, definition] of this.definitions[side]) {
        const target = componentName(side, name);
        if (side === 'input' && target === name && this.definitions.output.has(name)) continue;
        if (components[target]) {
          this.problems.push(`Component name '${target}' is taken twice (rename the schema with that id)`);
          continue;
        }
        rewrite(side, definition);
        components[target] = definition;
      }
    }
    for (const { side, schema } of this.handedOut) rewrite(side, schema);
    return Object.fromEntries(Object.entries(components).sort(([left], [right]) => left.localeCompare(right)));
  }
}
