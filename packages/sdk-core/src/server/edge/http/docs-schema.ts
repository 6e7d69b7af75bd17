import type { JsonSchema } from './openapi-components.js';

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Escaped text with `code` spans, for descriptions. */
export function inlineText(value: unknown): string {
  return escapeHtml(value).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** Anchor id of a component schema on the page. */
export function schemaAnchor(name: string): string {
  return `schema-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

const REF_PREFIX = '#/components/schemas/';
/** Nested inline objects deeper than this are summarised, so recursive or huge shapes stay readable. */
const MAX_DEPTH = 4;

function refName(schema: JsonSchema): string | undefined {
  return typeof schema.$ref === 'string' && schema.$ref.startsWith(REF_PREFIX) ? schema.$ref.slice(REF_PREFIX.length) : undefined;
}

function variants(schema: JsonSchema): JsonSchema[] | undefined {
  const list = schema.anyOf ?? schema.oneOf;
  return Array.isArray(list) ? (list as JsonSchema[]) : undefined;
}

/** Compact one-line type of a schema, e.g. `string (date-time)`, `array of Persona`, `"a" | "b"`. */
export function typeLabel(schema: JsonSchema | undefined): string {
  if (!schema || Object.keys(schema).length === 0) return '<span class="type">any</span>';
  const name = refName(schema);
  if (name) return `<a class="ref" href="#${schemaAnchor(name)}">${escapeHtml(name)}</a>`;
  if ('const' in schema) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => `<code>${escapeHtml(JSON.stringify(value))}</code>`).join(' | ');
  const options = variants(schema);
  if (options) return options.map(typeLabel).join(' | ');
  if (Array.isArray(schema.allOf)) return (schema.allOf as JsonSchema[]).map(typeLabel).join(' &amp; ');
  if (schema.type === 'array') return `array of ${typeLabel(schema.items as JsonSchema | undefined)}`;
  if (Array.isArray(schema.type)) return schema.type.map((type) => escapeHtml(type)).join(' | ');
  const details: string[] = [];
  if (typeof schema.format === 'string') details.push(schema.format);
  // Formats (date-time, email...) come with long generated patterns that say nothing more.
  if (typeof schema.pattern === 'string' && typeof schema.format !== 'string') details.push(`pattern ${schema.pattern}`);
  if (schema.type === 'object' && !schema.properties && schema.additionalProperties) details.push('map');
  const suffix = details.length > 0 ? ` <span class="muted">(${escapeHtml(details.join(', '))})</span>` : '';
  return `<span class="type">${escapeHtml(schema.type ?? 'any')}</span>${suffix}`;
}

function constraints(schema: JsonSchema): string {
  const notes: string[] = [];
  const pairs: Array<[string, string]> = [
    ['minLength', 'min length'],
    ['maxLength', 'max length'],
    ['minimum', 'min'],
    ['maximum', 'max'],
    ['minItems', 'min items'],
    ['maxItems', 'max items'],
  ];
  for (const [key, label] of pairs) if (typeof schema[key] === 'number') notes.push(`${label} ${schema[key]}`);
  if ('default' in schema) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes.length > 0 ? `<span class="muted">${escapeHtml(notes.join(', '))}</span>` : '';
}

function nullableInner(schema: JsonSchema): { inner: JsonSchema; nullable: boolean } {
  const options = variants(schema);
  if (options && options.length === 2) {
    const nonNull = options.filter((option) => option.type !== 'null');
    if (nonNull.length === 1) return { inner: { ...nonNull[0], ...(schema.description ? { description: schema.description } : {}) }, nullable: true };
  }
  return { inner: schema, nullable: false };
}

function nestedObject(schema: JsonSchema): JsonSchema | undefined {
  if (refName(schema)) return undefined;
  if (schema.type === 'object' && schema.properties) return schema;
  if (schema.type === 'array' && schema.items && (schema.items as JsonSchema).properties) return schema.items as JsonSchema;
  return undefined;
}

/** A schema as HTML: a property table for objects (nesting inline objects), else its type line. */
export function renderSchema(schema: JsonSchema | undefined, depth = 0): string {
  if (!schema) return '<p class="muted">No body.</p>';
  const description = typeof schema.description === 'string' ? `<p class="description">${inlineText(schema.description)}</p>` : '';
  const deprecated = schema.deprecated === true ? ' <span class="badge deprecated">deprecated</span>' : '';
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  const options = variants(schema);
  if (options && !nullableInner(schema).nullable && options.some((option) => !refName(option) && option.properties)) {
    const items = options.map((option, index) => `<li><span class="muted">variant ${index + 1}</span>${renderSchema(option, depth + 1)}</li>`);
    return `${description}<p>One of:${deprecated}</p><ol class="variants">${items.join('')}</ol>`;
  }
  if (!properties || depth > MAX_DEPTH) return `${description}<p>${typeLabel(schema)} ${constraints(schema)}${deprecated}</p>`;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const rows = Object.entries(properties).map(([name, property]) => {
    const { inner, nullable } = nullableInner(property);
    const nested = nestedObject(inner);
    const flags = [
      required.has(name) ? '<span class="badge required">required</span>' : '',
      nullable ? '<span class="badge">nullable</span>' : '',
      inner.deprecated === true ? '<span class="badge deprecated">deprecated</span>' : '',
    ].join(' ');
    const text = typeof inner.description === 'string' ? inlineText(inner.description) : '';
    const child = nested ? `<div class="nested">${renderSchema(nested, depth + 1)}</div>` : '';
    return `<tr><td><code>${escapeHtml(name)}</code> ${flags}</td><td>${typeLabel(inner)} ${constraints(inner)}</td><td>${text}${child}</td></tr>`;
  });
  return `${description}${deprecated}<table class="schema"><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/**
 * A tiny Markdown subset (headings, bullet lists, paragraphs, `code`, **bold**, links to `/...` or `https://...`)
 * for `info.description`.
 * Text is escaped first, so nothing in the description can inject markup.
 */
export function renderMarkdown(markdown: string): string {
  const inline = (text: string) =>
    inlineText(text)
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      // Links to this server's pages or to https addresses only (never `javascript:`).
      .replace(/\[([^\]]+)\]\(((?:\/|https:\/\/)[^)\s]*)\)/g, '<a href="$2">$1</a>');
  const html: string[] = [];
  let listOpen = false;
  const closeList = () => {
    if (listOpen) html.push('</ul>');
    listOpen = false;
  };
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) {
      closeList();
      html.push(`<h3>${inline(line.slice(3))}</h3>`);
    } else if (line.startsWith('- ')) {
      if (!listOpen) html.push('<ul>');
      listOpen = true;
      html.push(`<li>${inline(line.slice(2))}</li>`);
    } else if (line.trim() === '') {
      closeList();
    } else {
      closeList();
      html.push(`<p>${inline(line)}</p>`);
    }
  }
  closeList();
  return html.join('\n');
}
