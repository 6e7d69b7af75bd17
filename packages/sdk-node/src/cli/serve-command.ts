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
      ...(database !== undefined ? (/^postgres(ql)?:\/\//.test(database) ? { databaseUrl: database } : { database }) : {}),
    },
  });
  const url = await server.listen();
  const storage = server.config.databaseUrl
    ? 'PostgreSQL'
    : server.config.database === ':memory:'
      ? 'SQLite (in memory)'
      : `SQLite (${server.config.database})`;
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
  // SIGTERM/SIGINT: stop accepting, end live sessions (server_shutdown), end chat streams still running, finish
  // webhook deliveries in flight, and exit with the close's status (1 when it failed); a shutdown that takes over
  // 10 s exits anyway (an orchestrator would kill the process next). A repeated signal changes nothing: one Ctrl-C
  // reaches the process twice under `pnpm palaver serve` (the terminal's, and the one pnpm and tsx pass on), and
  // a second default handler would end it in the middle of closing.
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      process.stderr.write('palaver: shutdown took over 10 s; exiting now\n');
      process.exit(1);
    }, 10_000).unref();
    let code = 0;
    try {
      await server.close();
    } catch (error) {
      process.stderr.write(`palaver: closing failed: ${error instanceof Error ? error.message : String(error)}\n`);
      code = 1;
    }
    process.stdout.write(`palaver: stopped (${signal})\n`);
    process.exit(code);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
