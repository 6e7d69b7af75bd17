import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../../errors/api-error.js';
import { jsonAnswer } from './offline-json.js';

const reply = 'You said: "book a table". I am the Palaver offline test model.';
const answerOf = (schema: Record<string, unknown>) =>
  JSON.parse(jsonAnswer({ type: 'json_schema', json_schema: { name: 'x', strict: true, schema } }, reply)!) as unknown;

describe('the offline model’s JSON answers', () => {
  it('is undefined for text, and wraps the reply for json_object', () => {
    expect(jsonAnswer(undefined, reply)).toBeUndefined();
    expect(jsonAnswer({ type: 'text' }, reply)).toBeUndefined();
    expect(JSON.parse(jsonAnswer({ type: 'json_object' }, reply)!)).toEqual({ reply });
  });

  it('builds values that validate against schemas made by zod: bounds, enums, formats, nullables, nested arrays', () => {
    const Booking = z.object({
      name: z.string().max(12),
      code: z.string().min(80),
      party: z.number().int().min(2).max(8),
      ratio: z.number().gt(0.5).lt(1),
      kind: z.enum(['dinner', 'lunch']),
      fixed: z.literal('yes'),
      when: z.iso.datetime(),
      email: z.email(),
      id: z.uuid(),
      note: z.string().nullable(),
      guests: z.array(z.object({ name: z.string(), vegan: z.boolean() })).min(3),
      either: z.union([z.number(), z.string()]),
    });
    const value = answerOf(z.toJSONSchema(Booking, { target: 'draft-7' }));
    expect(Booking.parse(value)).toMatchObject({ name: reply.slice(0, 12), party: 2, kind: 'dinner', fixed: 'yes', guests: [{}, {}, {}] });
  });

  it('follows $refs, and ends a recursive schema', () => {
    const schema = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/node' } },
      required: ['root'],
      additionalProperties: false,
      $defs: {
        node: {
          type: 'object',
          properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
          required: ['label', 'children'],
          additionalProperties: false,
        },
      },
    };
    const value = answerOf(schema);
    expect(z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]).safeParse(value).success).toBe(true);
  });

  it('refuses a schema it cannot meet with 400 naming response_format.json_schema.schema', () => {
    const pattern = { type: 'object', properties: { code: { type: 'string', pattern: '^[0-9]+$' } }, required: ['code'] };
    expect(() => answerOf(pattern)).toThrow(ApiError);
    expect(() => answerOf(pattern)).toThrow(/response_format\.json_schema\.schema: the offline model cannot produce a value/);
    expect(() => answerOf({ $ref: 'https://example.com/schema.json' })).toThrow(/response_format\.json_schema\.schema: \$ref .* is not local/);
  });
});
