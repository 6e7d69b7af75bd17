import { withDatabase } from './open-database.js';

export interface KeysOptions {
  database?: string;
  name?: string;
}

/** `palaver keys [list|create|revoke <id>]`: manages the development project's API keys in a database. */
export async function keysCommand(action: string, id: string | undefined, options: KeysOptions): Promise<void> {
  await withDatabase(options.database, async (server) => {
    const keys = server.services.apiKeys;
    if (action === 'list') {
      for (const key of await keys.list(server.project)) {
        process.stdout.write(`${key.id}\t${key.key_prefix}…\t${key.name}\t${key.created_at}${key.revoked_at ? `\trevoked ${key.revoked_at}` : ''}\n`);
      }
      process.stdout.write(`dev key: ${server.apiKey}\n`);
    } else if (action === 'create') {
      const created = await keys.create(server.project, options.name ?? 'cli');
      process.stdout.write(`${created.id}\t${created.key}\n`);
    } else if (action === 'revoke') {
      if (!id) throw new Error('usage: palaver keys revoke <key id>');
      if (!(await keys.revoke(id))) throw new Error(`no active key '${id}'`);
      process.stdout.write(`revoked ${id}\n`);
    } else {
      throw new Error(`unknown action '${action}' (list, create, revoke)`);
    }
  });
}
