import { describe, expect, it } from 'vitest';
import { GraphDocument } from '../../src/contract/graph/graph-document.js';
import { AuthenticationError, BadRequestError, NotFoundError } from '../../src/index.js';
import { storeKinds } from '../support/databases.js';
import { apiFailureOf } from '../support/failure-of.js';
import { humanClient } from '../support/human-clients.js';
import { useTestServer } from '../support/suite-server.js';

describe.each(await storeKinds())('app templates (%s)', (kind) => {
  const test = useTestServer(kind);

  it('lists the built-in templates (Echo, Simple Voice AI, with tools, with a sub graph, with video) with graphs in the graph format, each readable by id', async () => {
    const templates = await test.client.appTemplates.list();
    expect(templates.map((template) => template.name).sort()).toEqual([
      'Conversation with video',
      'Echo',
      'Simple Voice AI',
      'Voice AI in a sub graph',
      'Voice AI with tools',
    ]);
    for (const template of templates) {
      expect(template.version).toBe(1);
      expect(template.description.length).toBeGreaterThan(0);
      expect(GraphDocument.safeParse(template.graph).success, template.name).toBe(true);
      expect(await test.client.appTemplates.retrieve(template.id)).toEqual(template);
    }
  });

  it('apply creates a project app at version 1 with a copy of the template graph', async () => {
    const [template] = await test.client.appTemplates.list();
    const app = await test.client.appTemplates.apply(template!.id, { name: 'From template' });
    expect(app).toMatchObject({ name: 'From template', version: 1, description: template!.description, graph: template!.graph });
    expect(app.id).not.toBe(template!.id);
    expect((await test.client.apps.list()).map((item) => item.id)).toContain(app.id);
    await test.client.apps.update(app.id, { version: 1, graph: { nodes: [], portals: [] } });
    expect((await test.client.appTemplates.retrieve(template!.id)).graph).toEqual(template!.graph);
  });

  it("a human's applied app belongs to that human", async () => {
    const [template] = await test.client.appTemplates.list();
    const asCarol = await humanClient(test, 'carol');
    const asDan = await humanClient(test, 'dan');
    expect(await asDan.appTemplates.list()).toHaveLength(5);
    const app = await asCarol.appTemplates.apply(template!.id, { name: 'Carol bot' });
    expect((await asCarol.apps.list()).map((item) => item.id)).toContain(app.id);
    expect(NotFoundError.isInstance(await apiFailureOf(asDan.apps.retrieve(app.id)))).toBe(true);
  });

  it('answers 404 for an unknown template, 400 naming the field and 401 without credentials', async () => {
    expect(NotFoundError.isInstance(await apiFailureOf(test.client.appTemplates.retrieve('app_template_missing')))).toBe(true);
    expect(NotFoundError.isInstance(await apiFailureOf(test.client.appTemplates.apply('app_template_missing', { name: 'x' })))).toBe(true);
    const [template] = await test.client.appTemplates.list();
    for (const body of [{}, { name: '' }, { name: 42 }]) {
      const error = await apiFailureOf(test.client.appTemplates.apply(template!.id, body as never));
      expect(BadRequestError.isInstance(error)).toBe(true);
      expect(error.message).toContain('name');
    }
    expect(AuthenticationError.isInstance(await apiFailureOf(test.clientWith({}).appTemplates.list()))).toBe(true);
  });
});
