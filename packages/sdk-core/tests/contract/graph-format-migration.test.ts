import { describe, expect, it } from 'vitest';
import { GraphDocument } from '../../src/contract/graph/graph-document.js';
import { versionDocumentId } from '../../src/server/domain/apps/app-documents.js';
import { migrateStoredGraphs } from '../../src/server/domain/apps/graph-format-migration.js';
import { createLogger } from '../../src/server/kernel/logger.js';
import { storeKinds } from '../support/databases.js';
import { useTestServer } from '../support/suite-server.js';
import { seedDocuments } from './seed-documents.js';

const legacy = {
  nodes: [
    { id: 'microphone', type: 'audio_input' },
    { id: 'stt', type: 'stt', params: { language: 'en' } },
    { id: 'llm', type: 'llm', params: { model: 'default', system_prompt: 'Answer briefly.' } },
    { id: 'tts', type: 'tts', params: { voice: 'default' } },
    { id: 'speaker', type: 'audio_output' },
  ],
  edges: [
    { source: 'microphone', source_pad: 'audio', target: 'stt', target_pad: 'audio' },
    { source: 'stt', source_pad: 'text', target: 'llm', target_pad: 'prompt' },
    { source: 'llm', source_pad: 'text', target: 'tts', target_pad: 'text' },
    { source: 'tts', source_pad: 'audio', target: 'speaker', target_pad: 'audio' },
  ],
};

describe.each(await storeKinds())('stored graphs of the previous format (%s)', (kind) => {
  const test = useTestServer(kind);

  it('are converted at start into graphs that validate and run; retired built-ins disappear; a second pass changes nothing', async () => {
    const { store, projects } = test.server.services;
    const project = await projects.create('legacy');
    const appId = `app_legacy_${project}`;
    await seedDocuments(store, 1, () => ({ kind: 'app', id: appId, project, name: 'Legacy', data: JSON.stringify({ newest: 1, published: 1 }) }));
    await seedDocuments(store, 1, () => ({
      kind: 'app_version',
      id: versionDocumentId(appId, 1),
      project,
      parent: appId,
      name: 'Legacy',
      data: JSON.stringify({ name: 'Legacy', description: '', version: 1, graph: legacy, inputs: null }),
    }));
    await seedDocuments(store, 1, () => ({
      kind: 'app_template',
      id: 'app_template_customer_support',
      project: null,
      name: 'Old template',
      data: JSON.stringify({ name: 'Old', description: '', graph: legacy }),
    }));

    const first = await migrateStoredGraphs(store, createLogger('silent'));
    expect(first.converted).toBeGreaterThanOrEqual(1);
    expect(first.retired).toBeGreaterThanOrEqual(1);
    const row = await store.db.selectFrom('documents').select('data').where('id', '=', versionDocumentId(appId, 1)).executeTakeFirstOrThrow();
    const graph = GraphDocument.parse((JSON.parse(row.data) as { graph: unknown }).graph);
    expect(graph.nodes.map((node) => node.type)).toEqual(expect.arrayContaining(['Publish', 'STT', 'OpenAICompatibleLLM', 'TTS', 'Output']));
    expect(await store.db.selectFrom('documents').select('id').where('id', '=', 'app_template_customer_support').executeTakeFirst()).toBeUndefined();
    expect((await test.client.appTemplates.list()).map((template) => template.id)).not.toContain('app_template_customer_support');

    // The converted app validates (publish checks the graph) and runs.
    const key = await test.server.services.apiKeys.create(project, 'legacy');
    const client = test.clientWith({ apiKey: key.key });
    await expect(client.apps.publish(appId, { version: 1 })).resolves.toMatchObject({ version: 1 });
    await expect(client.appRuns.create({ app: appId })).resolves.toMatchObject({ app_run: { app: appId, version: 1 } });

    expect(await migrateStoredGraphs(store, createLogger('silent'))).toEqual({ converted: 0, retired: 0 });
  });
});
