import { WebhookMessage } from '../../../contract/webhooks.js';
import type { JsonSchema, SchemaCollector } from './openapi-components.js';

/**
 * The `webhooks` section of the OpenAPI 3.1 document: one entry per event type, describing the POST the
 * platform sends to the customer's receiver (spec part 6).
 */
export function webhookOperations(collector: SchemaCollector): Record<string, Record<string, JsonSchema>> {
  const webhooks: Record<string, Record<string, JsonSchema>> = {};
  for (const option of WebhookMessage.options) {
    const type = option.shape.type.value;
    webhooks[type] = {
      post: {
        operationId: `webhooks.${type}`,
        summary: `The \`${type}\` event`,
        description:
          'Sent as `{type, payload}`. Verify `X-Webhook-Signature` (hex HMAC-SHA256 of the raw body with the endpoint secret) or the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`); `webhook-id` is stable across retries. Delivery is at least once, retried with backoff.',
        parameters: [
          { name: 'X-Webhook-Signature', in: 'header', required: true, schema: { type: 'string' }, description: 'Hex HMAC-SHA256 of the raw body.' },
          { name: 'webhook-id', in: 'header', required: true, schema: { type: 'string' } },
          { name: 'webhook-timestamp', in: 'header', required: true, schema: { type: 'string' } },
          { name: 'webhook-signature', in: 'header', required: true, schema: { type: 'string' } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: collector.add(option, 'output', `webhook ${type}`) } } },
        responses: {
          '200': { description: 'Processed.' },
          '400': { description: 'Invalid request data (e.g. a bad signature); not retried as success.' },
          '500': { description: 'Receiver error; the delivery is retried.' },
        },
      },
    };
  }
  return webhooks;
}
