import { createServer } from '@palaver/sdk-core/server';
const server = await createServer({ env: {}, config: { logLevel: 'silent' } });
const services = (server as any).services;
const docs = services.personas.documents;
await docs.find('persona_x', { project: server.project, human: null, includeGlobal: true });
await docs.find('persona_x', { project: server.project, human: null });
for (const [shape, q] of docs.findQueries) {
  console.log(shape, q.sql);
  const rows = services.store.readNow('explain query plan ' + q.sql, q.parameters.map(() => 'x'));
  console.log(rows);
}
await server.close(); process.exit(0);
