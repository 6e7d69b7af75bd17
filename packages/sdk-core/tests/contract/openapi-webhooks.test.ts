import { describe, expect, it } from 'vitest';
import { allRoutes } from '../../src/contract/routes.js';
import { buildOpenApiDocument } from '../../src/server/edge/http/openapi.js';

describe('OpenAPI webhooks', () => {
  it('documents the four webhook events of the spec with their payload schemas and signature headers', () => {
    const document = buildOpenApiDocument(allRoutes, {}) as unknown as {
      webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> }; parameters: Array<{ name: string }> } }>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(document.webhooks).sort()).toEqual([
      'realtime_session.message_committed',
      'realtime_session.state_changed',
      'realtime_session.time_limit_exceeded',
      'usage.tracked',
    ]);
    const usage = document.webhooks['usage.tracked']!.post;
    expect(usage.parameters.map((parameter) => parameter.name)).toContain('X-Webhook-Signature');
    expect(JSON.stringify(usage.requestBody.content['application/json']!.schema)).toContain('UsageTrackedPayload');
    expect(document.components.schemas.UsageTrackedPayload).toBeDefined();
  });
});
