import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError } from '../../src/index.js';
import type { Principal } from '../../src/server/kernel/principal.js';
import { collectPages } from '../support/collect-pages.js';
import { storeKinds } from '../support/databases.js';
import { failureOf } from '../support/failure-of.js';
import { humanClient } from '../support/human-clients.js';
import { useTestServer } from '../support/suite-server.js';

describe.each(await storeKinds())('secrets (%s)', (kind) => {
  /** Everything the server logs, at level trace. */
  const logLines: string[] = [];
  const test = useTestServer(kind, { logger: pino({ level: 'trace' }, { write: (line: string) => void logLines.push(line) }) });

  /** A raw request, to see the exact response body text. */
  const raw = async (method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> => {
    const response = await test.server.fetch(
      new Request(`http://palaver.test${path}`, {
        method,
        headers: { 'x-api-key': test.server.apiKey, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      }),
    );
    return { status: response.status, text: await response.text() };
  };

  it('creates, renames, lists and deletes a secret without ever returning its value', async () => {
    const created = await test.client.secrets.create({ name: 'API_TOKEN', value: 'v1-value' });
    expect(Object.keys(created).sort()).toEqual(['created_at', 'id', 'name', 'updated_at']);
    expect(created).toMatchObject({ name: 'API_TOKEN' });
    expect(created.id).toMatch(/^secret_/);

    const renamed = await test.client.secrets.update(created.id, { name: 'API_TOKEN_V2', value: 'v2-value' });
    expect(renamed).toMatchObject({ id: created.id, name: 'API_TOKEN_V2', created_at: created.created_at });
    expect(Date.parse(renamed.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    expect(await test.server.services.secrets.reveal(test.server.project, 'API_TOKEN_V2')).toBe('v2-value');
    expect(await test.server.services.secrets.reveal(test.server.project, 'API_TOKEN')).toBeUndefined();

    const byName = await test.client.secrets.update('API_TOKEN_V2', { name: 'API_TOKEN_V2', value: 'v3-value' });
    expect(byName.id).toBe(created.id);
    expect(await test.server.services.secrets.reveal(test.server.project, 'API_TOKEN_V2')).toBe('v3-value');

    const listed = await test.client.secrets.list().all();
    expect(listed.find((secret) => secret.id === created.id)).toEqual(byName);
    expect(JSON.stringify(listed)).not.toContain('v3-value');

    expect(await test.client.secrets.delete(created.id)).toEqual({ message: expect.stringContaining('API_TOKEN_V2') });
    expect(await test.server.services.secrets.reveal(test.server.project, 'API_TOKEN_V2')).toBeUndefined();
    expect(NotFoundError.isInstance(await failureOf(test.client.secrets.delete(created.id)))).toBe(true);
    expect(NotFoundError.isInstance(await failureOf(test.client.secrets.update('secret_missing', { name: 'X', value: 'y' })))).toBe(true);
  });

  it('keeps names unique per owner (400 invalid_input naming name) and validates input', async () => {
    await test.client.secrets.create({ name: 'UNIQUE_ONE', value: 'a' });
    const other = await test.client.secrets.create({ name: 'UNIQUE_TWO', value: 'b' });
    const duplicate = await failureOf(test.client.secrets.create({ name: 'UNIQUE_ONE', value: 'c' }));
    expect(BadRequestError.isInstance(duplicate)).toBe(true);
    expect((duplicate as BadRequestError).type).toBe('invalid_input');
    expect((duplicate as BadRequestError).message).toMatch(/^name: .*UNIQUE_ONE/);
    const renameClash = await failureOf(test.client.secrets.update(other.id, { name: 'UNIQUE_ONE', value: 'c' }));
    expect((renameClash as BadRequestError).message).toMatch(/^name: /);
    // Each human has a namespace of their own, apart from the project-wide one.
    const hugo = await humanClient(test, 'hugo');
    await hugo.secrets.create({ name: 'UNIQUE_ONE', value: 'd' });
    const hugoDuplicate = await failureOf(hugo.secrets.create({ name: 'UNIQUE_ONE', value: 'e' }));
    expect((hugoDuplicate as BadRequestError).message).toMatch(/^name: .*UNIQUE_ONE/);
    // Concurrent creates of one name (in one process, as two instances would race): exactly one wins.
    const principal: Principal = { project: test.server.project, kind: 'key', human: null, credentialId: 'test' };
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) => test.server.services.secrets.create(principal, { name: 'RACED', value: `r${index}` })),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect((await test.client.secrets.list({ page_size: 100 })).values.filter((secret) => secret.name === 'RACED')).toHaveLength(1);

    for (const [body, field] of [
      [{ name: 'has space', value: 'x' }, 'name'],
      [{ name: 'x'.repeat(129), value: 'x' }, 'name'],
      [{ name: 'EMPTY', value: '' }, 'value'],
      [{ value: 'x' }, 'name'],
      [{ name: 'NO_VALUE' }, 'value'],
    ] as const) {
      const error = await failureOf(test.client.secrets.create(body as never));
      expect(BadRequestError.isInstance(error), JSON.stringify(body)).toBe(true);
      expect((error as BadRequestError).message, JSON.stringify(body)).toContain(field);
    }
  });

  it('neither lets a usage token squat a name nor tells it which names other humans use', async () => {
    const mallory = await humanClient(test, 'mallory');
    const victim = await humanClient(test, 'victim');
    await victim.secrets.create({ name: 'VICTIM_KEY', value: 'victim-value' });
    // Taking a name first blocks no one: the project (and every other human) keeps its own namespace.
    const squatted = await mallory.secrets.create({ name: 'OPENAI', value: 'mallory-value' });
    const project = await test.client.secrets.create({ name: 'OPENAI', value: 'project-value' });
    expect(project.id).not.toBe(squatted.id);
    // Creating a name another human uses succeeds, so the answer reveals nothing about it.
    const probe = await mallory.secrets.create({ name: 'VICTIM_KEY', value: 'mallory-probe' });
    expect(probe.name).toBe('VICTIM_KEY');

    // Names resolve within the caller's namespace.
    const secrets = test.server.services.secrets;
    const projectId = test.server.project;
    expect(await secrets.reveal(projectId, 'OPENAI')).toBe('project-value');
    expect(await secrets.reveal(projectId, 'OPENAI', { human: 'mallory' })).toBe('mallory-value');
    expect(await secrets.reveal(projectId, 'VICTIM_KEY', { human: 'victim' })).toBe('victim-value');
    expect(await secrets.reveal(projectId, 'VICTIM_KEY', { human: 'mallory' })).toBe('mallory-probe');
    expect(await secrets.isUsable(projectId, 'VICTIM_KEY')).toBe(false);
    await mallory.secrets.update('VICTIM_KEY', { name: 'VICTIM_KEY', value: 'mallory-2' });
    expect(await secrets.reveal(projectId, 'VICTIM_KEY', { human: 'victim' })).toBe('victim-value');
    await mallory.secrets.delete('VICTIM_KEY');
    expect(await secrets.reveal(projectId, 'VICTIM_KEY', { human: 'victim' })).toBe('victim-value');
    // The API key addresses the project-wide secret by name (and a human's by id).
    expect((await test.client.secrets.update('OPENAI', { name: 'OPENAI', value: 'project-2' })).id).toBe(project.id);
    expect(await secrets.reveal(projectId, 'OPENAI', { human: 'mallory' })).toBe('mallory-value');
    expect(NotFoundError.isInstance(await failureOf(test.client.secrets.delete('VICTIM_KEY')))).toBe(true);

    // LLM headers resolve references within the LLM owner's namespace.
    const headers = [{ key: 'Authorization', value: 'Bearer {{secret:OPENAI}}' }];
    const definition = { name: 'ref', description: '', model: 'm', headers };
    const malloryLlm = await mallory.llms.create(definition);
    const projectLlm = await test.client.llms.create(definition);
    const asMallory: Principal = { project: projectId, kind: 'token', human: 'mallory', credentialId: 'test' };
    const asKey: Principal = { project: projectId, kind: 'key', human: null, credentialId: 'test' };
    expect(await test.server.services.llms.resolveHeaders(asMallory, malloryLlm.id)).toEqual({ Authorization: 'Bearer mallory-value' });
    expect(await test.server.services.llms.resolveHeaders(asMallory, projectLlm.id)).toEqual({ Authorization: 'Bearer project-2' });
    expect(await test.server.services.llms.resolveHeaders(asKey, projectLlm.id)).toEqual({ Authorization: 'Bearer project-2' });
    // A reference to a name only another human has is refused.
    const borrowed = await failureOf(victim.llms.create({ ...definition, headers: [{ key: 'X', value: '{{secret:OPENAI}}' }] }));
    expect((borrowed as BadRequestError).message).toContain('headers[0].value');
  });

  it('answers 401 without credentials', async () => {
    const anonymous = test.clientWith({});
    expect(AuthenticationError.isInstance(await failureOf(anonymous.secrets.list()))).toBe(true);
    expect(AuthenticationError.isInstance(await failureOf(anonymous.secrets.create({ name: 'N', value: 'v' })))).toBe(true);
  });

  it("isolates humans: another human's secrets are invisible; shared secrets are read-only to humans", async () => {
    const iris = await humanClient(test, 'iris');
    const jack = await humanClient(test, 'jack');
    const irisSecret = await iris.secrets.create({ name: 'IRIS_ONLY', value: 'iris-value' });
    expect(NotFoundError.isInstance(await failureOf(jack.secrets.update(irisSecret.id, { name: 'IRIS_ONLY', value: 'x' })))).toBe(true);
    expect(NotFoundError.isInstance(await failureOf(jack.secrets.update('IRIS_ONLY', { name: 'IRIS_ONLY', value: 'x' })))).toBe(true);
    expect(NotFoundError.isInstance(await failureOf(jack.secrets.delete('IRIS_ONLY')))).toBe(true);
    expect((await jack.secrets.list().all()).map((secret) => secret.id)).not.toContain(irisSecret.id);
    expect((await iris.secrets.list().all()).map((secret) => secret.id)).toContain(irisSecret.id);
    expect((await test.client.secrets.list().all()).map((secret) => secret.id)).toContain(irisSecret.id);

    const shared = await test.client.secrets.create({ name: 'SHARED_ONE', value: 'shared-value' });
    expect((await jack.secrets.list().all()).map((secret) => secret.id)).toContain(shared.id);
    expect(PermissionDeniedError.isInstance(await failureOf(jack.secrets.update(shared.id, { name: 'SHARED_ONE', value: 'x' })))).toBe(true);
    expect(PermissionDeniedError.isInstance(await failureOf(jack.secrets.delete(shared.id)))).toBe(true);
    expect(await test.server.services.secrets.reveal(test.server.project, 'SHARED_ONE')).toBe('shared-value');

    // Server-side use follows ownership: a human's secret opens only for that human's objects.
    const secrets = test.server.services.secrets;
    expect(await secrets.reveal(test.server.project, 'IRIS_ONLY')).toBeUndefined();
    expect(await secrets.reveal(test.server.project, 'IRIS_ONLY', { human: 'jack' })).toBeUndefined();
    expect(await secrets.reveal(test.server.project, 'IRIS_ONLY', { human: 'iris' })).toBe('iris-value');
    expect(await secrets.reveal('project_other', 'SHARED_ONE')).toBeUndefined();
    expect(await iris.secrets.delete(irisSecret.id)).toHaveProperty('message');
  });

  it('encrypts values at rest, bound to the secret id', async () => {
    const first = await test.client.secrets.create({ name: 'AT_REST_1', value: 'plaintext-one' });
    const second = await test.client.secrets.create({ name: 'AT_REST_2', value: 'plaintext-two' });
    const db = test.server.services.store.db;
    const rows = await db.selectFrom('documents').selectAll().where('kind', '=', 'secret').where('id', 'in', [first.id, second.id]).execute();
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain('plaintext-');
    const sealedOf = (id: string) => (JSON.parse(rows.find((row) => row.id === id)!.data) as { sealed: string }).sealed;
    expect(sealedOf(first.id)).toMatch(/^v1\./);

    // A sealed value copied onto another secret does not open (the id is the associated data).
    await db
      .updateTable('documents')
      .set({ data: JSON.stringify({ name: 'AT_REST_2', sealed: sealedOf(first.id) }) })
      .where('kind', '=', 'secret')
      .where('id', '=', second.id)
      .execute();
    await expect(test.server.services.secrets.reveal(test.server.project, 'AT_REST_2')).rejects.toThrow();
    expect(await test.server.services.secrets.reveal(test.server.project, 'AT_REST_1')).toBe('plaintext-one');
  });

  it('pages through 25 secrets with page_size without duplicates or gaps', async () => {
    const created = new Set<string>();
    for (let index = 0; index < 25; index += 1) created.add((await test.client.secrets.create({ name: `PAGED_${index}`, value: 'x' })).id);
    await collectPages((query) => test.client.secrets.list(query), { pageSize: 6, expectedIds: created, maxPages: 100 });
  });

  it('canary: the value never appears in a response, the database or the logs', async () => {
    const canary = `canary-${randomBytes(16).toString('hex')}`;
    const rotated = `canary-${randomBytes(16).toString('hex')}`;
    const bodies: Array<{ status: number; text: string }> = [];
    const record = async (method: string, path: string, body?: unknown) => {
      const answer = await raw(method, path, body);
      bodies.push(answer);
      return answer;
    };

    const created = await record('POST', '/v1/secret', { name: 'CANARY', value: canary });
    expect(created.status).toBe(200);
    const id = (JSON.parse(created.text) as { id: string }).id;
    expect((await record('PUT', `/v1/secret/${id}`, { name: 'CANARY', value: rotated })).status).toBe(200);
    expect((await record('GET', '/v1/secret/list?page_size=100')).status).toBe(200);
    // Error answers for requests carrying the value.
    expect((await record('POST', '/v1/secret', { name: 'CANARY', value: canary })).status).toBe(400);
    expect((await record('POST', '/v1/secret', { name: 'not valid!', value: canary })).status).toBe(400);
    expect((await record('POST', '/v1/secret', { name: 'TOO_LONG', value: canary.repeat(2000) })).status).toBe(400);
    expect((await record('POST', '/v1/secret', { name: 'WRONG_TYPE', value: [canary] })).status).toBe(400);
    expect((await record('POST', '/v1/secret', `{"name":"BROKEN","value":"${canary}"`)).status).toBe(400);
    expect((await record('PUT', '/v1/secret/secret_missing', { name: 'CANARY', value: canary })).status).toBe(404);
    // An LLM that uses it: the definition shows the reference, and server-side resolution works.
    const llm = await record('POST', '/v1/llm', {
      name: 'Canary LLM',
      description: '',
      model: 'm',
      headers: [{ key: 'Authorization', value: 'Bearer {{secret:CANARY}}' }],
    });
    expect(llm.status).toBe(200);
    const llmId = (JSON.parse(llm.text) as { id: string }).id;
    expect((await record('GET', `/v1/llm/${llmId}`)).status).toBe(200);
    const principal: Principal = { project: test.server.project, kind: 'key', human: null, credentialId: 'test' };
    expect(await test.server.services.llms.resolveHeaders(principal, llmId)).toEqual({ Authorization: `Bearer ${rotated}` });

    for (const body of bodies) {
      expect(body.text).not.toContain(canary);
      expect(body.text).not.toContain(rotated);
    }
    const rows = await test.server.services.store.db.selectFrom('documents').selectAll().execute();
    const settings = await test.server.services.store.db.selectFrom('settings').selectAll().execute();
    for (const dump of [JSON.stringify(rows), JSON.stringify(settings)]) {
      expect(dump).not.toContain(canary);
      expect(dump).not.toContain(rotated);
    }
    const logs = logLines.join('');
    expect(logs).toContain('"msg":"request"');
    expect(logs).not.toContain(canary);
    expect(logs).not.toContain(rotated);
  });
});
