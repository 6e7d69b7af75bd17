import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client.js';
import { examplesByOperationId } from '../../src/contract/examples/index.js';
import { allRoutes, routes } from '../../src/contract/routes.js';
import { buildOpenApiDocument, type OpenApiOperation } from '../../src/server/edge/http/openapi.js';
import { sdkCall } from '../../src/server/edge/http/reference/sdk-calls.js';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const document = buildOpenApiDocument(allRoutes, { serverUrl: 'https://api.palaver.test' });
const operations = allRoutes.map((route) => ({ route, operation: document.paths[route.path]![route.method.toLowerCase()]! }));
const examples = examplesByOperationId(routes);

function sample(operation: OpenApiOperation, label: string): string {
  const found = operation['x-codeSamples']?.find((entry) => entry.label === label);
  if (!found) throw new Error(`${operation.operationId} has no ${label} sample`);
  return found.source;
}

/**
 * Type-checks TypeScript sources as modules of this repository (its tsconfig, `@palaver/sdk-core` resolved to the
 * sources): the diagnostics of each source, by name.
 */
function typeCheck(sources: Record<string, string>): Record<string, string[]> {
  const configFile = join(repositoryRoot, 'tsconfig.json');
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configFile, ts.sys.readFile).config, ts.sys, repositoryRoot);
  const options: ts.CompilerOptions = { ...config.options, noEmit: true };
  const folder = join(repositoryRoot, 'packages/sdk-core/tests/contract/code-samples');
  const files = new Map(Object.entries(sources).map(([name, source]) => [join(folder, `${name}.ts`), source]));
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => files.has(file) || fileExists.call(host, file);
  host.readFile = (file) => files.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, ...rest) =>
    files.has(file) ? ts.createSourceFile(file, files.get(file)!, language, true) : getSourceFile.call(host, file, language, ...rest);
  const program = ts.createProgram([...files.keys()], options, host);
  return Object.fromEntries(
    [...files.keys()].map((file) => [
      file.slice(folder.length + 1, -3),
      ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
    ]),
  );
}

describe('x-codeSamples of the OpenAPI document', () => {
  it('every operation has a curl command and a TypeScript client call, from its example', () => {
    for (const { route, operation } of operations) {
      expect(
        operation['x-codeSamples']?.map((entry) => entry.label),
        route.operationId,
      ).toEqual(['curl', 'TypeScript SDK']);
      const curl = sample(operation, 'curl');
      expect(curl, route.operationId).toContain(`curl -X ${route.method} 'https://api.palaver.test/`);
      expect(curl).toContain('-H "x-api-key: $PALAVER_API_KEY"');
      expect(curl).toMatch(route.auth === 'K' ? /^# K: an API key only/ : /^# K\/B: an API key, or a usage token/);
      for (const value of Object.values(examples.get(route.operationId)?.params ?? {})) expect(curl, route.operationId).toContain(String(value));
      const typescript = sample(operation, 'TypeScript SDK');
      expect(typescript).toContain("import { createClient } from '@palaver/sdk-core';");
      expect(typescript).toContain(`client.${sdkCall(route, examples.get(route.operationId)!).method}(`);
    }
    const clone = sample(document.paths['/v1/voice/clone']!.post!, 'curl');
    expect(clone).toContain("-F 'file=@recording.mp3'");
    const ledger = sample(document.paths['/v1/credit/{credit}/ledger']!.post!, 'TypeScript SDK');
    expect(ledger).toContain("humanId: 'user-42'");
  });

  it('every TypeScript sample calls a method the client has', () => {
    const client = createClient({ baseUrl: 'https://api.palaver.test' }) as unknown as Record<string, unknown>;
    const unknown = allRoutes
      .map((route) => sdkCall(route, examples.get(route.operationId)!).method)
      .filter((method) => {
        const parts = method.split('.');
        const owner = parts.slice(0, -1).reduce<unknown>((value, part) => (value as Record<string, unknown> | undefined)?.[part], client);
        return typeof (owner as Record<string, unknown> | undefined)?.[parts.at(-1)!] !== 'function';
      });
    expect(unknown).toEqual([]);
  });

  it('every TypeScript sample type-checks against the client: the method, its arguments and their types', () => {
    const sources = Object.fromEntries(operations.map(({ route, operation }) => [route.operationId, sample(operation, 'TypeScript SDK')]));
    // Two broken copies show that the check catches a call of what the client lacks and an argument it refuses.
    const broken = {
      'broken-missing': sources['personas.retrieve']!.replace('client.personas.retrieve(', 'client.personas.fetch('),
      'broken-argument': sources['personas.create']!.replace("name: 'Ada'", 'name: 42'),
    };
    const diagnostics = typeCheck({ ...sources, ...broken });
    expect(Object.entries(diagnostics).filter(([name, messages]) => !name.startsWith('broken-') && messages.length > 0)).toEqual([]);
    expect(diagnostics['broken-missing']!.join('\n')).toMatch(/fetch/);
    expect(diagnostics['broken-argument']!.join('\n')).toMatch(/number/);
  }, 120_000);
});
