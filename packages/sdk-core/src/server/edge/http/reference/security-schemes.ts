/**
 * The two credentials of the API as OpenAPI security schemes. Operations marked K list `ApiKey` only; K/B
 * operations list both, either one being enough.
 */
export function securitySchemes(): Record<string, Record<string, string>> {
  return {
    ApiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      description:
        'The secret API key of a project, for server-side use only (`Authorization: Bearer pk_...` is read as the key too). Every operation accepts it: the K operations accept nothing else, the K/B ones accept a usage token instead. `x-human-id` ties a call to one of your humans.',
    },
    UsageToken: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description:
        'A usage token minted with `POST /v1/usage/token` for one human, sent as `Authorization: Bearer <token>`; safe to hand to a browser. Accepted by the K/B operations (B for bearer), refused with 403 by the K ones.',
    },
  };
}
