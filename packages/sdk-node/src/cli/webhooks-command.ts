import { withDatabase } from './open-database.js';

export interface WebhooksOptions {
  database?: string;
  secret?: string;
  status?: 'pending' | 'delivering' | 'delivered' | 'failed';
  event?: string;
  failed?: boolean;
  limit?: string;
}

function write(line: string): void {
  process.stdout.write(`${line}\n`);
}

/**
 * `palaver webhooks <action>`: manage the development project's webhook endpoints and inspect or replay
 * deliveries. Actions: list, add <url>, remove <id>, enable <id>, disable <id>, deliveries, show <delivery id>,
 * replay <delivery id> | --event <event id> | --failed.
 */
export async function webhooksCommand(action: string, argument: string | undefined, options: WebhooksOptions): Promise<void> {
  await withDatabase(options.database, async (server) => {
    const webhooks = server.services.webhooks;
    const project = server.project;
    const required = (what: string) => {
      if (!argument) throw new Error(`usage: palaver webhooks ${action} <${what}>`);
      return argument;
    };
    switch (action) {
      case 'list':
        for (const endpoint of await webhooks.listEndpoints(project)) {
          write(
            `${endpoint.id}\t${endpoint.enabled ? 'enabled' : `disabled (${endpoint.disabled_reason ?? 'manually'})`}\t${endpoint.url}${endpoint.configured ? '\t(from PALAVER_WEBHOOK_URL)' : ''}`,
          );
        }
        return;
      case 'add': {
        const { endpoint, secret } = await webhooks.addEndpoint(project, { url: required('url'), ...(options.secret ? { secret: options.secret } : {}) });
        write(`${endpoint.id}\t${endpoint.url}`);
        write(`signing secret: ${secret}`);
        return;
      }
      case 'remove':
        await webhooks.removeEndpoint(project, required('endpoint id'));
        write(`removed ${argument}`);
        return;
      case 'enable':
      case 'disable': {
        const endpoint = await webhooks.setEndpointEnabled(
          project,
          required('endpoint id'),
          action === 'enable',
          action === 'disable' ? 'disabled from the CLI' : null,
        );
        write(`${endpoint.id}\t${endpoint.enabled ? 'enabled' : 'disabled'}`);
        return;
      }
      case 'deliveries':
        for (const delivery of await webhooks.listDeliveries(project, {
          ...(options.status ? { status: options.status } : {}),
          ...(options.event ? { eventId: options.event } : {}),
          ...(options.limit ? { limit: Number(options.limit) } : {}),
        })) {
          write(
            `${delivery.id}\t${delivery.event_type}\t${delivery.status}\tattempts ${delivery.attempts}\tlast ${delivery.last_status ?? delivery.last_error ?? '-'}\t${delivery.created_at}`,
          );
        }
        return;
      case 'show': {
        const delivery = await webhooks.getDelivery(project, required('delivery id'));
        write(JSON.stringify(delivery, null, 2));
        return;
      }
      case 'replay': {
        const queued = options.failed
          ? await webhooks.replay(project, { status: 'failed' })
          : options.event
            ? await webhooks.replay(project, { eventId: options.event })
            : await webhooks.replay(project, { deliveryId: required('delivery id') });
        write(`queued ${queued} deliver${queued === 1 ? 'y' : 'ies'} (a running server sends them)`);
        return;
      }
      default:
        throw new Error(`unknown action '${action}' (list, add, remove, enable, disable, deliveries, show, replay)`);
    }
  });
}
