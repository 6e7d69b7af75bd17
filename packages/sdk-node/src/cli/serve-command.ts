import { createServer } from '@palaver/sdk-core/server';

export interface ServeOptions {
  port?: string;
  host?: string;
  database?: string;
}

/** `palaver serve`: starts the platform with embedded defaults and prints how to use it. */
export async function serveCommand(options: ServeOptions): Promise<void> {
  const database = options.database;
  const server = await createServer({
    config: {
      ...(options.port !== undefined ? { port: Number(options.port) } : {}),
      ...(options.host !== undefined ? { host: options.host } : {}),
      ...(database !== undefined
        ? /^postgres(ql)?:\/\//.test(database)
          ? { databaseUrl: database }
          : { database }
        : {}),
    },
  });
  const url = await server.listen();
  const storage = server.config.databaseUrl ? 'PostgreSQL' : server.config.database === ':memory:' ? 'SQLite (in memory)' : `SQLite (${server.config.database})`;
  process.stdout.write(
    [
      '',
      `  Palaver is running at ${url}`,
      `  Dev API key:   ${server.apiKey}`,
      `  API reference: ${url}/docs`,
      `  OpenAPI:       ${url}/openapi.json`,
      `  Storage:       ${storage}`,
      '',
      `  Try: curl -H "x-api-key: ${server.apiKey}" ${url}/v1/voice/list`,
      '',
    ].join('\n') + '\n',
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
