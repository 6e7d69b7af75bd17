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
  // SIGTERM/SIGINT: stop accepting, end live sessions (server_shutdown), finish webhook deliveries in flight,
  // and exit; a shutdown that takes over 10 s exits anyway (an orchestrator would kill the process next).
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      process.stderr.write('palaver: shutdown took over 10 s; exiting now\n');
      process.exit(1);
    }, 10_000).unref();
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}
