import { allRoutes } from '../../../contract/routes.js';
import { renderNodeCatalogue } from './docs-node-catalogue.js';
import { escapeHtml, inlineText, renderMarkdown, renderSchema, schemaAnchor, typeLabel } from './docs-schema.js';
import type { JsonSchema } from './openapi-components.js';
import { buildOpenApiDocument, type OpenApiDocument, type OpenApiOperation } from './openapi.js';

const STYLE = `
:root{--fg:#1d2330;--muted:#667085;--line:#e4e7ec;--bg:#fff;--soft:#f6f7f9;--accent:#3451b2}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{position:sticky;top:0;z-index:2;background:var(--bg);border-bottom:1px solid var(--line);padding:12px 24px;display:flex;gap:16px;align-items:center;flex-wrap:wrap}
header h1{font-size:18px;margin:0}header input{flex:1;min-width:220px;max-width:480px;padding:6px 10px;border:1px solid var(--line);border-radius:6px;font:inherit}
.layout{display:grid;grid-template-columns:240px 1fr;gap:24px;padding:0 24px}nav{position:sticky;top:64px;align-self:start;max-height:calc(100vh - 80px);overflow:auto;padding:16px 0}
nav a{display:block;color:var(--fg);text-decoration:none;padding:2px 0}nav a:hover{color:var(--accent)}main{min-width:0;padding-bottom:64px}
a{color:var(--accent)}code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:var(--soft);padding:1px 4px;border-radius:4px}
details.op{border:1px solid var(--line);border-radius:8px;margin:8px 0;background:var(--bg)}details.op>summary{cursor:pointer;padding:8px 12px;display:flex;gap:10px;align-items:center;flex-wrap:wrap}
details.op[open]>summary{border-bottom:1px solid var(--line)}.op-body{padding:8px 16px 16px}
.method{font:600 12px ui-monospace,monospace;padding:2px 6px;border-radius:4px;color:#fff;min-width:56px;text-align:center}
.GET{background:#2e7d32}.POST{background:#1565c0}.PUT{background:#ef6c00}.DELETE{background:#c62828}.PATCH{background:#6a1b9a}
.path{font:600 14px ui-monospace,monospace}.summary{color:var(--muted)}.badge{font-size:11px;padding:1px 6px;border-radius:10px;border:1px solid var(--line);color:var(--muted)}
.badge.auth{border-color:var(--accent);color:var(--accent)}.badge.deprecated{border-color:#c62828;color:#c62828}.badge.required{border-color:#b54708;color:#b54708}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{text-align:left;vertical-align:top;border-bottom:1px solid var(--line);padding:4px 8px}th{font-size:12px;color:var(--muted);font-weight:600}
.muted{color:var(--muted)}.nested{margin-left:12px;border-left:2px solid var(--line);padding-left:8px}.description{margin:4px 0}
details.schema-def{border-bottom:1px solid var(--line);padding:4px 0}details.schema-def>summary{cursor:pointer;font:600 14px ui-monospace,monospace}details.body-schema>summary{cursor:pointer}
h2{margin:32px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}h4{margin:14px 0 4px}.hidden{display:none!important}
@media (max-width:800px){.layout{grid-template-columns:1fr}nav{display:none}}
`;

// Filters operations and schemas by every search term; tag sections without a visible operation hide too.
const SCRIPT = `
(function(){var input=document.getElementById('search');if(!input)return;
function apply(){var terms=input.value.toLowerCase().split(/\\s+/).filter(Boolean);
document.querySelectorAll('[data-search]').forEach(function(element){var text=element.getAttribute('data-search');
var shown=terms.every(function(term){return text.indexOf(term)!==-1});element.classList.toggle('hidden',!shown);});
document.querySelectorAll('section[data-group]').forEach(function(section){section.classList.toggle('hidden',!section.querySelector('[data-search]:not(.hidden)'));});}
input.addEventListener('input',apply);})();
`;

const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;
const SCHEMA_PREFIX = '#/components/schemas/';

interface OperationEntry {
  method: string;
  path: string;
  operation: OpenApiOperation;
}

function resolveResponse(document: OpenApiDocument, response: JsonSchema): JsonSchema {
  const reference = typeof response.$ref === 'string' ? response.$ref : undefined;
  if (reference?.startsWith('#/components/responses/')) return document.components.responses[reference.slice('#/components/responses/'.length)] ?? response;
  return response;
}

/** A body schema; a component reference is expanded one level in a collapsible block. */
function renderBodySchema(document: OpenApiDocument, schema: JsonSchema | undefined, expand: boolean): string {
  if (!expand) return renderSchema(schema);
  const reference = typeof schema?.$ref === 'string' && schema.$ref.startsWith(SCHEMA_PREFIX) ? schema.$ref.slice(SCHEMA_PREFIX.length) : undefined;
  const component = reference ? document.components.schemas[reference] : undefined;
  if (!component) return renderSchema(schema);
  return `<details class="body-schema"><summary>${typeLabel(schema)}</summary>${renderSchema(component)}</details>`;
}

function renderContent(document: OpenApiDocument, content: Record<string, JsonSchema> | undefined, expand = true): string {
  if (!content) return '<p class="muted">No body.</p>';
  return Object.entries(content)
    .map(([type, media]) => {
      const event = media['x-event-schema'] as JsonSchema | undefined;
      const body =
        type === 'text/event-stream' && event
          ? `<p>Each event's data is:</p>${renderBodySchema(document, event, expand)}`
          : renderBodySchema(document, media.schema as JsonSchema | undefined, expand);
      return `<div><p><code>${escapeHtml(type)}</code></p>${body}</div>`;
    })
    .join('');
}

function renderParameters(parameters: JsonSchema[] | undefined): string {
  if (!parameters || parameters.length === 0) return '';
  const rows = parameters.map((parameter) => {
    const flags = [
      parameter.required ? '<span class="badge required">required</span>' : '',
      parameter.deprecated ? '<span class="badge deprecated">deprecated</span>' : '',
    ].join(' ');
    return `<tr><td><code>${escapeHtml(parameter.name)}</code> ${flags}</td><td>${escapeHtml(parameter.in)}</td><td>${typeLabel(parameter.schema as JsonSchema)}</td><td>${inlineText(parameter.description ?? '')}</td></tr>`;
  });
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function authLabel(operation: OpenApiOperation): { short: string; long: string } {
  return operation['x-auth-class'] === 'K'
    ? { short: 'K', long: 'API key only (x-api-key)' }
    : { short: 'K/B', long: 'API key (x-api-key) or usage token (Authorization: Bearer)' };
}

function renderOperation(document: OpenApiDocument, entry: OperationEntry): string {
  const { operation } = entry;
  const method = entry.method.toUpperCase();
  const auth = authLabel(operation);
  const searchText = [method, entry.path, operation.summary, operation.operationId, operation.tags.join(' '), operation.deprecated ? 'deprecated' : '']
    .join(' ')
    .toLowerCase();
  const requestBody = operation.requestBody as { required?: boolean; content?: Record<string, JsonSchema> } | undefined;
  const responses = Object.entries(operation.responses).map(([status, raw]) => {
    const response = resolveResponse(document, raw);
    return `<details${status === '200' ? ' open' : ''}><summary><strong>${escapeHtml(status)}</strong> ${inlineText(response.description ?? '')}</summary>${renderContent(document, response.content as Record<string, JsonSchema> | undefined, status === '200')}</details>`;
  });
  return `<details class="op" id="op-${escapeHtml(operation.operationId)}" data-search="${escapeHtml(searchText)}">
<summary><span class="method ${escapeHtml(method)}">${escapeHtml(method)}</span><span class="path">${escapeHtml(entry.path)}</span>
<span class="badge auth" title="${escapeHtml(auth.long)}">${escapeHtml(auth.short)}</span>${operation.deprecated ? '<span class="badge deprecated">deprecated</span>' : ''}
<span class="summary">${escapeHtml(operation.summary)}</span></summary>
<div class="op-body"><p class="muted">Operation <code>${escapeHtml(operation.operationId)}</code> · Auth: ${escapeHtml(auth.long)}</p>
${renderParameters(operation.parameters)}
${requestBody ? `<h4>Request body${requestBody.required ? ' <span class="badge required">required</span>' : ''}</h4>${renderContent(document, requestBody.content)}` : ''}
<h4>Responses</h4>${responses.join('')}</div></details>`;
}

function groupByTag(document: OpenApiDocument): Map<string, OperationEntry[]> {
  const groups = new Map<string, OperationEntry[]>(document.tags.map((tag) => [tag.name, []]));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags[0] ?? 'Other';
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push({ method, path, operation });
    }
  }
  return groups;
}

/**
 * Renders the self-contained API reference page (no external assets) from an OpenAPI document: operations
 * grouped by tag with their auth, parameters, bodies and responses, the component schemas, and a search box.
 *
 * @example
 * app.get('/docs', (context) => context.html(renderDocsPage('/openapi.json')));
 */
export function renderDocsPage(specUrl: string, document?: OpenApiDocument): string {
  if (document) return renderPage(specUrl, document);
  // The contract is fixed for the life of the process, so the default page is rendered once per URL.
  let html = cachedPages.get(specUrl);
  if (html === undefined) {
    html = renderPage(specUrl, buildOpenApiDocument(allRoutes, {}));
    cachedPages.set(specUrl, html);
  }
  return html;
}

const cachedPages = new Map<string, string>();

function renderPage(specUrl: string, document: OpenApiDocument): string {
  const groups = groupByTag(document);
  const tagAnchor = (tag: string) => `tag-${tag.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}`;
  const navigation = [...groups]
    .filter(([, entries]) => entries.length > 0)
    .map(([tag, entries]) => `<a href="#${tagAnchor(tag)}">${escapeHtml(tag)} <span class="muted">(${entries.length})</span></a>`)
    .join('');
  const sections = [...groups]
    .filter(([, entries]) => entries.length > 0)
    .map(
      ([tag, entries]) =>
        `<section data-group id="${tagAnchor(tag)}"><h2>${escapeHtml(tag)}</h2>${entries.map((entry) => renderOperation(document, entry)).join('\n')}</section>`,
    )
    .join('\n');
  const schemas = Object.entries(document.components.schemas)
    .map(
      ([name, schema]) =>
        `<details class="schema-def" id="${schemaAnchor(name)}" data-search="${escapeHtml(`schema ${name}`.toLowerCase())}"><summary>${escapeHtml(name)}${schema.deprecated === true ? ' <span class="badge deprecated">deprecated</span>' : ''}</summary>${renderSchema(schema)}</details>`,
    )
    .join('\n');
  const operationCount = [...groups.values()].reduce((total, entries) => total + entries.length, 0);

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${escapeHtml(document.info.title)} reference</title><style>${STYLE}</style></head>
<body><header><h1>${escapeHtml(document.info.title)} <span class="muted">v${escapeHtml(document.info.version)}</span></h1>
<input id="search" type="search" placeholder="Search operations and schemas (e.g. persona, POST, token)" aria-label="Search" autocomplete="off">
<a href="${escapeHtml(specUrl)}">OpenAPI 3.1 JSON</a></header>
<div class="layout"><nav><a href="#overview"><strong>Overview</strong></a>${navigation}<a href="#node-catalogue"><strong>App graph nodes</strong></a><a href="#schemas"><strong>Schemas</strong></a></nav>
<main><section id="overview"><h2>Overview</h2><p class="muted">${operationCount} operations.</p>${renderMarkdown(document.info.description)}</section>
${sections}
${renderNodeCatalogue()}
<section id="schemas"><h2>Schemas</h2>${schemas}</section></main></div>
<script>${SCRIPT}</script></body></html>`;
}
