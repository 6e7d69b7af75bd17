import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError } from '../../src/index.js';
import type { LlmCreateRequest } from '../../src/index.js';
import { loadConfig } from '../../src/server.js';
import type { Principal } from '../../src/server/kernel/principal.js';
import { LlmService } from '../../src/server/domain/llms/llm-service.js';
import { collectPages } from '../support/collect-pages.js';
import { storeKinds } from '../support/databases.js';
import { failureOf } from '../support/failure-of.js';
import { humanClient } from '../support/human-clients.js';
import { useTestServer } from '../support/suite-server.js';
import { startTestServer } from '../support/test-server.js';

const custom: LlmCreateRequest = {
  name: 'My endpoint',
  description: 'An OpenAI-compatible server',
  headers: [{ key: 'X-Team', value: 'voice' }],
  model: 'llama3',
  post_url: 'https://llm.example.com/v1/chat/completions',
};

describe.each(await storeKinds())('LLM definitions (%s)', (kind) => {
  const test = useTestServer(kind);
  let projectKey: Principal;
  beforeAll(() => {
    projectKey = { project: test.server.project, kind: 'key', human: null, credentialId: 'test' };
  });

  it('lists the built-in offline model, which is read-only', async () => {
    const offline = await test.client.llms.retrieve('builtin-offline');
    expect(offline).toMatchObject({
      id: 'builtin-offline',
      name: 'Palaver offline test model (deterministic, not a real LLM)',
      type: 'builtin',
      project: null,
      compliance: true,
      service_tool_calling: true,
    });
    expect((await test.client.llms.list().all()).map((llm) => llm.id)).toContain('builtin-offline');
    const olga = await humanClient(test, 'olga');
    expect(await olga.llms.retrieve('builtin-offline')).toEqual(offline);

    for (const call of [() => test.client.llms.update('builtin-offline', custom), () => test.client.llms.delete('builtin-offline')]) {
      const error = await failureOf(call());
      expect(PermissionDeniedError.isInstance(error)).toBe(true);
      expect((error as PermissionDeniedError).status).toBe(403);
    }
    expect(await test.client.llms.retrieve('builtin-offline')).toEqual(offline);
  });

  it('creates, retrieves, replaces, lists and deletes a project LLM', async () => {
    const created = await test.client.llms.create(custom);
    expect(created).toMatchObject({ ...custom, type: 'openai_compatible', project: test.server.project });
    expect(typeof created.compliance).toBe('boolean');
    expect(typeof created.service_tool_calling).toBe('boolean');
    expect(await test.client.llms.retrieve(created.id)).toEqual(created);

    const replaced = await test.client.llms.update(created.id, { name: 'Renamed', description: '', headers: [], model: 'llama3.1' });
    expect(replaced).toMatchObject({ id: created.id, name: 'Renamed', headers: [], model: 'llama3.1', created_at: created.created_at });
    expect(replaced.post_url).toBeUndefined();
    expect((await test.client.llms.list().all()).map((llm) => llm.id)).toEqual(expect.arrayContaining([created.id, 'builtin-offline']));

    expect(await test.client.llms.delete(created.id)).toEqual({ message: expect.stringContaining(created.id) });
    expect(NotFoundError.isInstance(await failureOf(test.client.llms.retrieve(created.id)))).toBe(true);
    expect(NotFoundError.isInstance(await failureOf(test.client.llms.delete(created.id)))).toBe(true);
    expect(NotFoundError.isInstance(await failureOf(test.client.llms.update('llm_missing', custom)))).toBe(true);
  });

  it('rejects invalid definitions with 400 invalid_input naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...custom, headers: [{ key: 'bad key', value: 'x' }] }, 'headers[0].key'],
      [{ ...custom, headers: [{ key: 'X-Ok', value: 'line\r\nInjected: yes' }] }, 'headers[0].value'],
      [
        {
          ...custom,
          headers: [
            { key: 'X-A', value: '1' },
            { key: 'x-a', value: '2' },
          ],
        },
        'headers[1].key',
      ],
      [{ ...custom, post_url: 'ftp://llm.example.com' }, 'post_url'],
      [{ ...custom, post_url: 'not a url' }, 'post_url'],
      [{ name: 'x', description: '', headers: [] }, 'model'],
      [{ name: 'x', description: '', model: 'm' }, 'headers'],
      [{ ...custom, headers: [{ key: 'Authorization', value: 'Bearer {{secret:bad name}}' }] }, 'headers[0].value'],
    ];
    for (const [body, field] of cases) {
      const error = await failureOf(test.client.llms.create(body as LlmCreateRequest));
      expect(BadRequestError.isInstance(error), JSON.stringify(body)).toBe(true);
      expect((error as BadRequestError).type).toBe('invalid_input');
      expect((error as BadRequestError).message, JSON.stringify(body)).toContain(field);
    }
  });

  it('refuses a post_url at a private, link-local or (when configured) loopback address', async () => {
    for (const post_url of [
      'http://169.254.169.254/latest',
      'http://[::ffff:169.254.169.254]/',
      'http://10.1.2.3/v1',
      'http://172.16.0.1/',
      'http://[fe80::1]/',
    ]) {
      const error = await failureOf(test.client.llms.create({ ...custom, post_url }));
      expect(BadRequestError.isInstance(error), post_url).toBe(true);
      expect((error as BadRequestError).message, post_url).toContain('post_url');
    }
    // Loopback is allowed by default (`llm.allowLoopback`), e.g. a local Ollama.
    const local = await test.client.llms.create({ ...custom, post_url: 'http://127.0.0.1:11434/v1/chat/completions' });
    const refused = await failureOf(test.client.llms.update(local.id, { ...custom, post_url: 'http://169.254.169.254/' }));
    expect((refused as BadRequestError).message).toContain('post_url');
    expect((await test.client.llms.retrieve(local.id)).post_url).toBe('http://127.0.0.1:11434/v1/chat/completions');

    const strict = await startTestServer(kind, { config: { llm: { allowLoopback: false, allowPrivateNetworks: true } } });
    try {
      for (const post_url of ['http://127.0.0.1/v1', 'http://localhost:11434/v1', 'http://[::1]/', 'http://169.254.169.254/']) {
        const error = await failureOf(strict.client.llms.create({ ...custom, post_url }));
        expect(BadRequestError.isInstance(error), post_url).toBe(true);
        expect((error as BadRequestError).message, post_url).toContain('post_url');
      }
      expect((await strict.client.llms.create({ ...custom, post_url: 'http://10.1.2.3/v1' })).post_url).toBe('http://10.1.2.3/v1');
    } finally {
      await strict.close();
    }
  });

  it('masks literal header values for human-scoped callers on LLMs they do not own', async () => {
    await test.client.secrets.create({ name: 'MASK_TEST', value: 'mask-test-value' });
    const literal = 'Bearer sk-live-0123456789WXYZ';
    const headers = [
      { key: 'Authorization', value: literal },
      { key: 'X-Short', value: 'abc123' },
      { key: 'X-Ref', value: '{{secret:MASK_TEST}}' },
      { key: 'X-Ref-Bearer', value: 'Bearer {{secret:MASK_TEST}}' },
      { key: 'X-Mixed', value: 'k-{{secret:MASK_TEST}}-literal-tail' },
    ];
    const shared = await test.client.llms.create({ ...custom, name: 'Shared literal', headers });
    const masked = [
      { key: 'Authorization', value: '••••WXYZ' },
      { key: 'X-Short', value: '••••' },
      { key: 'X-Ref', value: '{{secret:MASK_TEST}}' },
      { key: 'X-Ref-Bearer', value: 'Bearer {{secret:MASK_TEST}}' },
      { key: 'X-Mixed', value: '••••tail' },
    ];
    // The owner (API key without a human) sees what it stored.
    expect(shared.headers).toEqual(headers);
    expect((await test.client.llms.retrieve(shared.id)).headers).toEqual(headers);
    expect((await test.client.llms.list().all()).find((llm) => llm.id === shared.id)?.headers).toEqual(headers);

    const masha = await humanClient(test, 'masha');
    const mashaViaKey = test.clientWith({ apiKey: test.server.apiKey, humanId: 'masha' });
    for (const [label, client] of [
      ['usage token', masha],
      ['API key with x-human-id', mashaViaKey],
    ] as const) {
      expect((await client.llms.retrieve(shared.id)).headers, label).toEqual(masked);
      const listed = await client.llms.list().all();
      expect(listed.find((llm) => llm.id === shared.id)?.headers, label).toEqual(masked);
      expect(JSON.stringify(listed), label).not.toContain('sk-live');
    }
    // A human sees the values of their own LLMs.
    const own = await masha.llms.create({ ...custom, name: 'Own literal', headers: [{ key: 'Authorization', value: 'Bearer own-0123456789' }] });
    expect(own.headers).toEqual([{ key: 'Authorization', value: 'Bearer own-0123456789' }]);
    expect((await masha.llms.retrieve(own.id)).headers).toEqual(own.headers);
    // Masking is for display only: the gateway still sends the stored values.
    const principal: Principal = { project: test.server.project, kind: 'token', human: 'masha', credentialId: 'test' };
    expect((await test.server.services.llms.resolveHeaders(principal, shared.id)).Authorization).toBe(literal);
  });

  it('answers 401 without credentials', async () => {
    const anonymous = test.clientWith({});
    expect(AuthenticationError.isInstance(await failureOf(anonymous.llms.list()))).toBe(true);
    expect(AuthenticationError.isInstance(await failureOf(anonymous.llms.create(custom)))).toBe(true);
  });

  it('validates {{secret:NAME}} header references and resolves them server-side only', async () => {
    const missing = await failureOf(test.client.llms.create({ ...custom, headers: [{ key: 'Authorization', value: 'Bearer {{secret:NOT_THERE}}' }] }));
    expect(BadRequestError.isInstance(missing)).toBe(true);
    expect((missing as BadRequestError).message).toContain('headers[0].value');
    expect((missing as BadRequestError).message).toContain('NOT_THERE');

    await test.client.secrets.create({ name: 'UPSTREAM_KEY', value: 'sk-upstream-123' });
    await test.client.secrets.create({ name: 'ORG', value: 'org-9' });
    const llm = await test.client.llms.create({
      ...custom,
      headers: [
        { key: 'Authorization', value: 'Bearer {{secret:UPSTREAM_KEY}}' },
        { key: 'X-Org', value: '{{ secret:ORG }}/{{secret:ORG}}' },
        { key: 'X-Plain', value: 'plain' },
      ],
    });
    expect(JSON.stringify(llm)).not.toContain('sk-upstream-123');
    expect(llm.headers?.[0]).toEqual({ key: 'Authorization', value: 'Bearer {{secret:UPSTREAM_KEY}}' });
    expect(JSON.stringify(await test.client.llms.list().all())).not.toContain('sk-upstream-123');

    expect(await test.server.services.llms.resolveHeaders(projectKey, llm.id)).toEqual({
      Authorization: 'Bearer sk-upstream-123',
      'X-Org': 'org-9/org-9',
      'X-Plain': 'plain',
    });
    expect(await test.server.services.llms.resolveHeaders(projectKey, 'builtin-offline')).toEqual({});

    // A value changed after the LLM was defined is picked up at call time.
    await test.client.secrets.update('UPSTREAM_KEY', { name: 'UPSTREAM_KEY', value: 'sk-rotated-456' });
    expect((await test.server.services.llms.resolveHeaders(projectKey, llm))['Authorization']).toBe('Bearer sk-rotated-456');

    await test.client.secrets.delete('ORG');
    const gone = await failureOf(test.server.services.llms.resolveHeaders(projectKey, llm.id));
    expect(BadRequestError.isInstance(gone)).toBe(true);
    expect((gone as BadRequestError).message).toContain("'ORG'");
    const updateWithGone = await failureOf(test.client.llms.update(llm.id, { ...custom, headers: [{ key: 'X-Org', value: '{{secret:ORG}}' }] }));
    expect((updateWithGone as BadRequestError).message).toContain('headers[0].value');
  });

  it('isolates humans, and lets a human reference only their own secrets', async () => {
    const anna = await humanClient(test, 'anna');
    const ben = await humanClient(test, 'ben');
    await test.client.secrets.create({ name: 'PROJECT_KEY', value: 'project-value' });
    await anna.secrets.create({ name: 'ANNA_KEY', value: 'anna-value' });

    // An end user must not be able to send a project secret to a URL of their choosing.
    const borrowed = await failureOf(anna.llms.create({ ...custom, headers: [{ key: 'Authorization', value: '{{secret:PROJECT_KEY}}' }] }));
    expect((borrowed as BadRequestError).message).toContain('PROJECT_KEY');
    const annas = await anna.llms.create({ ...custom, name: 'Anna model', headers: [{ key: 'Authorization', value: '{{secret:ANNA_KEY}}' }] });
    expect((await ben.llms.create({ ...custom, headers: [] })).project).toBe(test.server.project);
    const bensBorrow = await failureOf(ben.llms.create({ ...custom, headers: [{ key: 'Authorization', value: '{{secret:ANNA_KEY}}' }] }));
    expect(BadRequestError.isInstance(bensBorrow)).toBe(true);

    expect(NotFoundError.isInstance(await failureOf(ben.llms.retrieve(annas.id)))).toBe(true);
    expect(NotFoundError.isInstance(await failureOf(ben.llms.update(annas.id, custom)))).toBe(true);
    expect(NotFoundError.isInstance(await failureOf(ben.llms.delete(annas.id)))).toBe(true);
    expect((await ben.llms.list().all()).map((llm) => llm.id)).not.toContain(annas.id);
    expect((await anna.llms.list().all()).map((llm) => llm.id)).toEqual(expect.arrayContaining([annas.id, 'builtin-offline']));

    const annaPrincipal: Principal = { project: test.server.project, kind: 'token', human: 'anna', credentialId: 'test' };
    const benPrincipal: Principal = { ...annaPrincipal, human: 'ben' };
    expect(await test.server.services.llms.resolveHeaders(annaPrincipal, annas.id)).toEqual({ Authorization: 'anna-value' });
    expect(NotFoundError.isInstance(await failureOf(test.server.services.llms.resolveHeaders(benPrincipal, annas.id)))).toBe(true);

    const shared = await test.client.llms.create({ ...custom, headers: [{ key: 'Authorization', value: '{{secret:PROJECT_KEY}}' }] });
    expect(await anna.llms.retrieve(shared.id)).toMatchObject({ id: shared.id });
    expect(PermissionDeniedError.isInstance(await failureOf(anna.llms.update(shared.id, custom)))).toBe(true);
    expect(PermissionDeniedError.isInstance(await failureOf(anna.llms.delete(shared.id)))).toBe(true);
    // The project's own LLM may use the project secret even when a human's session calls it.
    expect(await test.server.services.llms.resolveHeaders(annaPrincipal, shared.id)).toEqual({ Authorization: 'project-value' });
  });

  it('pages through 25 LLMs (built-ins included) without duplicates or gaps', async () => {
    const created = new Set<string>();
    for (let index = 0; index < 25; index += 1) created.add((await test.client.llms.create({ ...custom, name: `Paged ${index}` })).id);
    await collectPages((query) => test.client.llms.list(query), { pageSize: 7, expectedIds: [...created, 'builtin-offline'] });
  });

  it('seeds one built-in per configured upstream without storing or returning the OpenAI key', async () => {
    const openaiKey = `sk-test-${Math.random().toString(36).slice(2)}`;
    const config = loadConfig({
      OPENAI_API_KEY: openaiKey,
      PALAVER_OPENAI_MODELS: 'gpt-4o-mini, gpt-4.1',
      PALAVER_OLLAMA_URL: 'http://127.0.0.1:11434',
      PALAVER_OLLAMA_MODELS: 'llama3.2:3b',
    });
    expect(loadConfig({}).llm).toMatchObject({ openaiModels: ['gpt-4o-mini'], ollamaModels: [] });
    // What a restart with this configuration does: seed against the same database.
    const { store, secrets } = test.server.services;
    await new LlmService(store, secrets, config.llm).seedBuiltIns();
    try {
      const llms = await test.client.llms.list().all();
      const byId = new Map(llms.map((llm) => [llm.id, llm]));
      expect(byId.get('builtin-openai-gpt-4o-mini')).toMatchObject({ type: 'openai', model: 'gpt-4o-mini', project: null, headers: [] });
      expect(byId.get('builtin-openai-gpt-4.1')).toMatchObject({ type: 'openai', model: 'gpt-4.1' });
      expect(byId.get('builtin-ollama-llama3.2-3b')).toMatchObject({
        type: 'ollama',
        model: 'llama3.2:3b',
        post_url: 'http://127.0.0.1:11434/v1/chat/completions',
      });
      expect(byId.has('builtin-offline')).toBe(true);
      expect(JSON.stringify(llms)).not.toContain(openaiKey);
      const rows = await store.db.selectFrom('documents').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(openaiKey);
      const error = await failureOf(test.client.llms.update('builtin-openai-gpt-4o-mini', custom));
      expect(PermissionDeniedError.isInstance(error)).toBe(true);

      // Seeding again keeps ids and creation times and adds no duplicates.
      await new LlmService(store, secrets, config.llm).seedBuiltIns();
      const again = await test.client.llms.list().all();
      expect(again.map((llm) => [llm.id, llm.created_at])).toEqual(llms.map((llm) => [llm.id, llm.created_at]));
    } finally {
      // Back to the server's own (unconfigured) upstreams: the OpenAI and Ollama built-ins go away.
      await test.server.services.llms.seedBuiltIns();
    }
    const after = (await test.client.llms.list().all()).map((llm) => llm.id);
    expect(after.filter((id) => id.startsWith('builtin-'))).toEqual(['builtin-offline']);
  });

  it.runIf(kind === 'sqlite')('refreshes built-ins at restart: upstreams no longer configured disappear', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'palaver-llms-'));
    const database = join(directory, 'palaver.db');
    try {
      const first = await startTestServer(kind, { config: { database, llm: { openaiApiKey: 'sk-first', openaiModels: ['gpt-4o-mini'] } } });
      const offlineBefore = await first.client.llms.retrieve('builtin-offline');
      expect(await first.client.llms.retrieve('builtin-openai-gpt-4o-mini')).toMatchObject({ type: 'openai' });
      await first.close();

      const second = await startTestServer(kind, { config: { database } });
      try {
        expect(NotFoundError.isInstance(await failureOf(second.client.llms.retrieve('builtin-openai-gpt-4o-mini')))).toBe(true);
        expect((await second.client.llms.retrieve('builtin-offline')).created_at).toBe(offlineBefore.created_at);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
