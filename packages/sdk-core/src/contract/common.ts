import { z } from 'zod';

/** ISO 8601 date-time string. */
export const DateTime = z.iso.datetime({ offset: true });

/** Free-form JSON object. */
export const FreeObject = z.record(z.string(), z.unknown());

/** `{message}` answer of delete-like operations. */
export const MessageResponse = z.object({ message: z.string() }).meta({ id: 'MessageResponse' });

/** Shape shared by every list answer. */
export function listOf<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      values: z.array(item),
      total_count: z.number().int(),
      next_page: z.string().nullable(),
    })
    .meta({ id });
}

/** Query parameters of paginated lists: `page` carries the opaque next-page token. */
export const PageQuery = z.object({
  page: z.string().min(1).optional().describe("Opaque token from a previous answer's `next_page`."),
  page_size: z.coerce.number().int().min(1).max(100).optional().describe('Items per page (default 20, max 100).'),
});

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** A path parameter holding an identifier. */
export const Id = z.string().min(1).max(200);

/** BadRequest body (spec part 7). */
export const ErrorType = z.enum([
  'invalid_input',
  'usage_limit_exceeded',
  'project_disabled',
  'moderation_error',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'not_implemented',
  'internal_error',
]);
export type ErrorType = z.infer<typeof ErrorType>;

export const BadRequest = z
  .object({
    type: ErrorType,
    message: z.string(),
  })
  .meta({ id: 'BadRequest' });
export type BadRequest = z.infer<typeof BadRequest>;

/** Body of some 500 answers (spec part 7). */
export const InternalError = z.object({ error: z.string() }).meta({ id: 'InternalError' });
