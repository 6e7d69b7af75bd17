import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppGraph } from '../../src/contract/apps.js';
import { ApiError, AuthenticationError, BadRequestError, NotFoundError } from '../../src/index.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`);
  if (!ApiError.isInstance(outcome.error)) throw outcome.error;
  return outcome.error as ApiError;
}

describe.each(await storeKinds())('app templates (%s)', (kind) => {
  let test: TestServer;
  beforeAll(async () => {
    test = await startTestServer(kind);
  });
  afterAll(async () => test.close());

  it('lists three built-in templates with well-formed graphs, each readable by id', async () => {
    const templates = await test.client.appTemplates.list();
    expect(templates).toHaveLength(3);
    for (const template of templates) {
      expect(template.version).toBe(1);
      expect(template.description.length).toBeGreaterThan(0);
      expect(AppGraph.safeParse(template.graph).success, template.name).toBe(true);
      expect(await test.client.appTemplates.retrieve(template.id)).toEqual(template);
    }
  });

  it('apply creates a project app at version 1 with a copy of the template graph', async () => {
    const [template] = await test.client.appTemplates.list();
    const app = await test.client.appTemplates.apply(template!.id, { name: 'From template' });
    expect(app).toMatchObject({ name: 'From template', version: 1, description: template!.description, graph: template!.graph });
    expect(app.id).not.toBe(template!.id);
    expect((await test.client.apps.list()).map((item) => item.id)).toContain(app.id);
    await test.client.apps.update(app.id, { version: 1, graph: { nodes: [], edges: [] } });
    expect((await test.client.appTemplates.retrieve(template!.id)).graph).toEqual(template!.graph);
  });

  it("a human's applied app belongs to that human", async () => {
    const [template] = await test.client.appTemplates.list();
    const asCarol = test.clientWith({ usageToken: (await test.client.usage.createToken({ human: 'carol' })).token });
    const asDan = test.clientWith({ usageToken: (await test.client.usage.createToken({ human: 'dan' })).token });
    expect(await asDan.appTemplates.list()).toHaveLength(3);
    const app = await asCarol.appTemplates.apply(template!.id, { name: 'Carol bot' });
    expect((await asCarol.apps.list()).map((item) => item.id)).toContain(app.id);
    expect(NotFoundError.isInstance(await rejection(asDan.apps.retrieve(app.id)))).toBe(true);
  });

  it('answers 404 for an unknown template, 400 naming the field and 401 without credentials', async () => {
    expect(NotFoundError.isInstance(await rejection(test.client.appTemplates.retrieve('app_template_missing')))).toBe(true);
    expect(NotFoundError.isInstance(await rejection(test.client.appTemplates.apply('app_template_missing', { name: 'x' })))).toBe(true);
    const [template] = await test.client.appTemplates.list();
    for (const body of [{}, { name: '' }, { name: 42 }]) {
      const error = await rejection(test.client.appTemplates.apply(template!.id, body as never));
      expect(BadRequestError.isInstance(error)).toBe(true);
      expect(error.message).toContain('name');
    }
    expect(AuthenticationError.isInstance(await rejection(test.clientWith({}).appTemplates.list()))).toBe(true);
  });
});
