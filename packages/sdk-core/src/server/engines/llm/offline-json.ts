import { z } from 'zod';
import type { ChatResponseFormat } from '../../../contract/chat-parameters.js';
import { BadRequestError } from '../../../errors/api-error.js';

type Schema = Record<string, unknown>;

/** How deep `$ref`s are followed before a recursive schema is ended (with `null`, an empty array or object). */
const MAX_DEPTH = 8;

/** Example values of the string formats OpenAI's structured outputs support. */
const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00',
  duration: 'P1D',
  email: 'user@example.com',
  hostname: 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  uuid: '00000000-0000-4000-8000-000000000000',
  uri: 'https://example.com/',
  url: 'https://example.com/',
};

interface Context {
  root: Schema;
  /** The text strings are filled with (the offline model's reply). */
  text: string;
}

function resolveRef(ref: string, root: Schema): Schema {
  if (!ref.startsWith('#/')) throw new Error(`$ref '${ref}' is not local to the schema`);
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) node = (node as Schema | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (typeof node !== 'object' || node === null) throw new Error(`$ref '${ref}' points at nothing`);
  return node as Schema;
}

function stringFor(schema: Schema, context: Context): string {
  if (typeof schema.format === 'string' && FORMAT_EXAMPLES[schema.format]) return FORMAT_EXAMPLES[schema.format]!;
  let text = context.text;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  if (maxLength !== undefined) text = text.slice(0, maxLength);
  return text.padEnd(minLength, '.');
}

function numberFor(schema: Schema, integer: boolean): number {
  const bound = (inclusive: unknown, exclusive: unknown) =>
    typeof inclusive === 'number' ? { at: inclusive, open: false } : typeof exclusive === 'number' ? { at: exclusive, open: true } : undefined;
  const lower = bound(schema.minimum, schema.exclusiveMinimum);
  const upper = bound(schema.maximum, schema.exclusiveMaximum);
  const above = (value: number) => !lower || (lower.open ? value > lower.at : value >= lower.at);
  const below = (value: number) => !upper || (upper.open ? value < upper.at : value <= upper.at);
  if (above(0) && below(0)) return 0;
  if (integer) {
    const least = lower ? (lower.open ? Math.floor(lower.at) + 1 : Math.ceil(lower.at)) : undefined;
    const most = upper ? (upper.open ? Math.ceil(upper.at) - 1 : Math.floor(upper.at)) : undefined;
    return least !== undefined && !above(0) ? least : (most ?? 0);
  }
  if (lower && upper) return (lower.at + upper.at) / 2;
  if (lower) return lower.open ? lower.at + 1 : lower.at;
  return upper!.open ? upper!.at - 1 : upper!.at;
}

function typeOf(schema: Schema): string | undefined {
  if (Array.isArray(schema.type)) return (schema.type as string[]).find((type) => type !== 'null') ?? 'null';
  if (typeof schema.type === 'string') return schema.type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

/** A value of the schema (JSON Schema as structured outputs use it): every property, first choices, bounds met. */
function valueFor(schema: Schema, context: Context, depth: number): unknown {
  if (typeof schema.$ref === 'string') {
    if (depth >= MAX_DEPTH) return null;
    return valueFor(resolveRef(schema.$ref, context.root), context, depth + 1);
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(options) && options.length > 0) {
    const chosen =
      depth >= MAX_DEPTH
        ? (options.find((option) => option.type === 'null') ?? options[0]!)
        : (options.find((option) => option.type !== 'null') ?? options[0]!);
    return valueFor(chosen, context, depth + 1);
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return valueFor(Object.assign({}, ...(schema.allOf as Schema[])) as Schema, context, depth + 1);
  switch (typeOf(schema)) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : Object.keys(properties));
      const entries = Object.entries(properties).filter(([name]) => required.has(name) || depth < MAX_DEPTH);
      return Object.fromEntries(entries.map(([name, property]) => [name, valueFor(property, context, depth + 1)]));
    }
    case 'array': {
      const count = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 1, 0);
      const items = (schema.items ?? {}) as Schema;
      const length =
        depth >= MAX_DEPTH
          ? typeof schema.minItems === 'number'
            ? schema.minItems
            : 0
          : Math.min(count, typeof schema.maxItems === 'number' ? schema.maxItems : count);
      return Array.from({ length }, () => valueFor(items, context, depth + 1));
    }
    case 'string':
      return stringFor(schema, context);
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return context.text;
  }
}

/** The JSON Schema's own check of a value, through zod's reading of the schema; undefined when zod cannot read it. */
function schemaCheck(schema: Schema): ((value: unknown) => string | undefined) | undefined {
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(schema);
  } catch {
    return undefined;
  }
  return (value) => {
    const result = validator.safeParse(value);
    return result.success ? undefined : result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
  };
}

/**
 * The offline model's answer in the requested JSON shape: `json_object` wraps the reply (`{"reply": ...}`);
 * `json_schema` builds a value of the schema (strings hold the reply, numbers the nearest allowed to 0, enums their
 * first value) and checks it against the schema, refusing with 400 naming `response_format.json_schema.schema` a
 * schema it cannot meet (a `pattern` its text does not match, say). Undefined for `text`.
 *
 * @example
 * jsonAnswer({ type: 'json_object' }, 'Hi') // '{\n  "reply": "Hi"\n}'
 */
export function jsonAnswer(format: ChatResponseFormat | undefined, reply: string): string | undefined {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return JSON.stringify({ reply }, null, 2);
  const schema = (format.json_schema.schema ?? { type: 'object', properties: { reply: { type: 'string' } } }) as Schema;
  const field = 'Invalid body: response_format.json_schema.schema';
  let value: unknown;
  try {
    value = valueFor(schema, { root: schema, text: reply }, 0);
  } catch (error) {
    throw new BadRequestError(`${field}: ${(error as Error).message}`);
  }
  const problem = schemaCheck(schema)?.(value);
  if (problem) throw new BadRequestError(`${field}: the offline model cannot produce a value of this schema (${problem})`);
  return JSON.stringify(value, null, 2);
}
