import { existsSync, readFileSync } from 'node:fs';
import type { AuthClass, HttpMethod } from '../../src/contract/define-route.js';
import { requireComponent } from '../support/components.js';

/** One endpoint the spec lists in part 4. */
export interface SpecEndpoint {
  method: HttpMethod;
  path: string;
  auth: AuthClass;
  /** Where the auth class came from, for readable failures. */
  authSource: 'auth column' | 'section header' | 'prose' | 'part 5 rule';
  section: string;
  deprecated: boolean;
  /** The row says the operation has no `x-human-id` parameter. */
  noHumanHeader: boolean;
  /** The line in the spec, when read from it (absent in the recorded copy). */
  line?: number;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);

/**
 * The platform API spec is not part of this repository. The endpoints it lists (method, path, auth class, deprecation,
 * the x-human-id exception) are recorded in `spec-endpoints.snapshot.json`, which the contract is always checked
 * against. With `PALAVER_SPEC_PATH` pointing at the spec, the tests also read it and check the recorded copy is current.
 */
export function specPath(): string | undefined {
  return process.env.PALAVER_SPEC_PATH;
}

/**
 * Reads the spec named by `PALAVER_SPEC_PATH`, or answers undefined when the variable is unset (the spec-reading tests
 * then skip with a printed reason). A set path that does not exist is a missing component: it fails under CI=true.
 */
export function readSpecIfPresent(path = specPath()): string | undefined {
  if (path === undefined) {
    console.warn('[skip] the platform API spec is not read: set PALAVER_SPEC_PATH to check spec-endpoints.snapshot.json against it');
    return undefined;
  }
  const present = requireComponent('the platform API spec', existsSync(path), `${path} does not exist`);
  return present ? readFileSync(path, 'utf8') : undefined;
}

/** The spec's endpoints as recorded in the repository (`spec-endpoints.snapshot.json`). */
export function recordedSpecEndpoints(): SpecEndpoint[] {
  return JSON.parse(readFileSync(new URL('./spec-endpoints.snapshot.json', import.meta.url), 'utf8')) as SpecEndpoint[];
}

/** What the recorded copy keeps of an endpoint read from the spec. */
export function recordedForm(endpoint: SpecEndpoint): SpecEndpoint {
  const { line: _line, ...recorded } = endpoint;
  return recorded;
}

/**
 * Part 5: "The default requirement for operations is the API key or the bearer usage token", and K for
 * "the usage token operations, credit creation, credit ledger creation, speak, all tool definition operations".
 */
export function partFiveAuth(method: HttpMethod, path: string): AuthClass {
  if (path === '/v1/usage/token' || path.startsWith('/v1/usage/token/')) return 'K';
  if (method === 'POST' && path === '/v1/credit') return 'K';
  if (method === 'POST' && /^\/v1\/credit\/\{[^}]+\}\/ledger$/.test(path)) return 'K';
  if (method === 'POST' && /^\/v1\/realtime\/\{[^}]+\}\/speak$/.test(path)) return 'K';
  if (path === '/v1/tool' || path.startsWith('/v1/tool/')) return 'K';
  return 'K/B';
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());
}

function sectionAuth(heading: string): AuthClass | undefined {
  if (/\(all K\)/.test(heading)) return 'K';
  if (/\(K\/B\)/.test(heading)) return 'K/B';
  return undefined;
}

function deprecatedInPartNine(text: string): Set<string> {
  const deprecated = new Set<string>();
  const line = text.split('\n').find((candidate) => candidate.startsWith('- Deprecated:'));
  for (const match of line?.matchAll(/`(GET|POST|PUT|DELETE|PATCH) (\/[^`\s]+)`/g) ?? []) deprecated.add(`${match[1]} ${match[2]}`);
  return deprecated;
}

/**
 * The endpoints of part 4 ("Endpoints"): every table row with a method, plus operations stated in prose
 * as `` `METHOD /path` (K/B) ``. The auth class comes from the row's Auth column, else the section header
 * ("(all K)", "(K/B)"), else the part-5 rule.
 */
export function parseSpecEndpoints(text: string): SpecEndpoint[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^## 4\. /.test(line));
  const end = lines.findIndex((line, index) => index > start && /^## \d+\. /.test(line));
  if (start < 0) throw new Error('The spec has no "## 4. Endpoints" part');
  const deprecated = deprecatedInPartNine(text);
  const endpoints: SpecEndpoint[] = [];
  let section = '';
  let columns: string[] | undefined;

  for (let index = start + 1; index < (end < 0 ? lines.length : end); index += 1) {
    const line = lines[index]!;
    if (line.startsWith('### ')) {
      section = line.slice(4).trim();
      columns = undefined;
      continue;
    }
    if (!line.trim().startsWith('|')) {
      columns = undefined;
      for (const match of line.matchAll(/`(GET|POST|PUT|DELETE|PATCH) (\/v1\/[^`\s]+)` \((K\/B|K)\)/g)) {
        const method = match[1] as HttpMethod;
        const path = match[2]!;
        endpoints.push({
          method,
          path,
          auth: match[3] as AuthClass,
          authSource: 'prose',
          section,
          deprecated: deprecated.has(`${method} ${path}`),
          noHumanHeader: false,
          line: index + 1,
        });
      }
      continue;
    }
    const row = cells(line);
    if (!columns) {
      columns = row.map((cell) => cell.toLowerCase());
      continue;
    }
    const methodCell = row[columns.indexOf('method')] ?? '';
    if (!METHODS.has(methodCell)) continue; // the |---| separator row
    const method = methodCell as HttpMethod;
    const pathCell = row[columns.indexOf('path')] ?? '';
    const path = /\/\S+/.exec(pathCell)?.[0];
    if (!path) throw new Error(`Spec line ${index + 1}: no path in "${pathCell}"`);
    const rowText = row.join(' | ');
    const authColumn = columns.indexOf('auth');
    const authCell = authColumn >= 0 ? row[authColumn] : undefined;
    const fromHeader = sectionAuth(section);
    let auth: AuthClass;
    let authSource: SpecEndpoint['authSource'];
    if (authCell === 'K' || authCell === 'K/B') {
      auth = authCell;
      authSource = 'auth column';
    } else if (fromHeader) {
      auth = fromHeader;
      authSource = 'section header';
    } else {
      auth = partFiveAuth(method, path);
      authSource = 'part 5 rule';
    }
    endpoints.push({
      method,
      path,
      auth,
      authSource,
      section,
      deprecated: /\(deprecated\)/.test(pathCell) || /\(deprecated\)/.test(rowText) || deprecated.has(`${method} ${path}`),
      noHumanHeader: /no `x-human-id`/.test(rowText),
      line: index + 1,
    });
  }
  return endpoints;
}

/** `/v1/persona/{persona_id}` -> `/v1/persona/{}`: parameter names may differ only as a reported mismatch. */
export function pathShape(path: string): string {
  return path.replace(/\{[^}]+\}/g, '{}');
}
