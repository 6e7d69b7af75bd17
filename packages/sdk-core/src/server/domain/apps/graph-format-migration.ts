import type { Logger } from 'pino';
import type { Store } from '../../store/database.js';
import { convertLegacyGraph, isLegacyGraph } from '../../graph/format/legacy-graph.js';
import { APP_KIND, APP_TEMPLATE_KIND, APP_VERSION_KIND, SUBGRAPH_KIND, versionDocumentId } from './app-documents.js';
import { appTemplates, defaultSubGraphs, exampleApps } from './built-in-graphs.js';

/**
 * Brings stored graphs to the graph format (decision 0071), once per document: app versions and sub graphs
 * of every project in the old `{nodes, edges}` format are converted in place (`convertLegacyGraph`), and the
 * built-in examples, templates and sub graphs that no longer exist are removed. Idempotent: runs at every
 * start, after seeding.
 */
export async function migrateStoredGraphs(store: Store, logger: Logger): Promise<{ converted: number; retired: number }> {
  const builtIns = new Set<string>([
    ...exampleApps.flatMap((app) => [app.id, versionDocumentId(app.id, 1)]),
    ...appTemplates.map((template) => template.id),
    ...defaultSubGraphs.map((subgraph) => subgraph.id),
  ]);
  const kinds = [APP_KIND, APP_VERSION_KIND, APP_TEMPLATE_KIND, SUBGRAPH_KIND];
  const retired = await store.db
    .deleteFrom('documents')
    .where('kind', 'in', kinds)
    .where('project', 'is', null)
    .where('id', 'not in', [...builtIns])
    .executeTakeFirst();
  const rows = await store.db
    .selectFrom('documents')
    .select(['kind', 'id', 'data'])
    .where('kind', 'in', [APP_VERSION_KIND, SUBGRAPH_KIND])
    .where((eb) => eb.or([eb('data', 'like', '%"edges"%'), eb('data', 'like', '%"params"%')]))
    .execute();
  let converted = 0;
  for (const row of rows) {
    const data = JSON.parse(row.data) as { graph?: unknown };
    if (!isLegacyGraph(data.graph)) continue;
    const graph = convertLegacyGraph(data.graph);
    await store.db
      .updateTable('documents')
      .set({ data: JSON.stringify({ ...data, graph }) })
      .where('kind', '=', row.kind)
      .where('id', '=', row.id)
      .execute();
    converted += 1;
  }
  // Written around DocumentStore: what it kept of these kinds is dropped.
  for (const kind of kinds) store.documentReads?.forgetKind(kind);
  const retiredCount = Number(retired.numDeletedRows ?? 0);
  if (converted > 0 || retiredCount > 0) logger.info({ converted, retired: retiredCount }, 'stored graphs brought to the graph format');
  return { converted, retired: retiredCount };
}
