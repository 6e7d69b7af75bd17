// A webhook dispatcher in its own process, for the crash test: argv = PostgreSQL URL, schema.
import { ServerSecret } from '../../src/server/domain/auth/server-secret.js';
import { WebhookDispatcher } from '../../src/server/domain/webhooks/webhook-dispatcher.js';
import { WebhookService } from '../../src/server/domain/webhooks/webhook-service.js';
import { openStore } from '../../src/server/store/database.js';

const [url, schema] = process.argv.slice(2);
const store = await openStore({ url, schema });
const secret = await ServerSecret.load(store, undefined);
const webhooks = new WebhookService(store, secret.derive('settings-encryption'), { allowPrivateAddresses: true });
const dispatcher = new WebhookDispatcher(store, webhooks, {
  pollIntervalMs: 20,
  batchSize: 16,
  timeoutMs: 1000,
  leaseMs: 2000,
  retry: { delaysMs: Array.from({ length: 30 }, () => 50), jitterRatio: 0.5, maxRetryAfterMs: 1000 },
});
dispatcher.start();
process.stdout.write('ready\n');
