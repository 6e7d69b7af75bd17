import { z } from 'zod';
import { DateTime, Id, PageQuery, listOf } from './common.js';
import { defineRoute } from './define-route.js';

/**
 * Ledger amounts and balances are integers within the exact range of a JavaScript number
 * (|n| <= 2^53 - 1), so they survive JSON round trips unchanged; the store keeps them in 64-bit columns.
 */
const LedgerInteger = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

export const Credit = z
  .object({
    id: z.string(),
    created_at: DateTime,
    project: z.string(),
    name: z.string(),
    description: z.string(),
    allow_negative_balance: z.boolean().describe("Whether a human's balance may go below zero."),
  })
  .meta({ id: 'Credit' });
export type Credit = z.infer<typeof Credit>;

export const CreateCreditRequest = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().max(20_000).default(''),
    allow_negative_balance: z.boolean().default(false),
  })
  .meta({ id: 'CreateCreditRequest' });
export type CreateCreditRequest = z.input<typeof CreateCreditRequest>;

export const CreditLedgerEntry = z
  .object({
    id: z.string(),
    created_at: DateTime,
    credit: z.string(),
    human: z.string(),
    amount: LedgerInteger.describe('Signed change: positive grants, negative charges.'),
    balance: LedgerInteger.describe("The human's balance after this entry."),
    idempotency_key: z.string(),
  })
  .meta({ id: 'CreditLedgerEntry' });
export type CreditLedgerEntry = z.infer<typeof CreditLedgerEntry>;

export const CreateCreditLedgerEntryRequest = z
  .object({
    amount: LedgerInteger.describe('Signed change: positive grants, negative charges.'),
    idempotency_key: z.string().min(1).max(255).describe('Deduplicates retries: unique per credit and human. A repeat returns the original entry.'),
  })
  .meta({ id: 'CreateCreditLedgerEntryRequest' });
export type CreateCreditLedgerEntryRequest = z.infer<typeof CreateCreditLedgerEntryRequest>;

export const CreditList = listOf(Credit, 'CreditList');

const params = z.object({ credit: Id });

export const creditRoutes = {
  create: defineRoute({
    operationId: 'credits.create',
    method: 'POST',
    path: '/v1/credit',
    auth: 'K',
    tag: 'Credits',
    summary: 'Create a credit (a currency humans hold balances of)',
    humanHeader: false,
    request: { body: CreateCreditRequest },
    success: { kind: 'json', schema: Credit },
  }),
  list: defineRoute({
    operationId: 'credits.list',
    method: 'GET',
    path: '/v1/credit/list',
    auth: 'K/B',
    tag: 'Credits',
    summary: 'List credits',
    request: { query: PageQuery },
    success: { kind: 'json', schema: CreditList },
  }),
  retrieve: defineRoute({
    operationId: 'credits.retrieve',
    method: 'GET',
    path: '/v1/credit/{credit}',
    auth: 'K/B',
    tag: 'Credits',
    summary: 'Get a credit',
    request: { params },
    success: { kind: 'json', schema: Credit },
    errors: [404],
  }),
  createLedgerEntry: defineRoute({
    operationId: 'credits.createLedgerEntry',
    method: 'POST',
    path: '/v1/credit/{credit}/ledger',
    auth: 'K',
    tag: 'Credits',
    summary:
      "Add a ledger entry to a human's balance (the human comes from `x-human-id`). Refused with 400 when the balance " +
      'would go below zero and the credit does not allow a negative balance; a repeated `idempotency_key` returns the original entry.',
    request: { params, body: CreateCreditLedgerEntryRequest },
    success: { kind: 'json', schema: CreditLedgerEntry },
    errors: [404],
  }),
  latestLedgerEntry: defineRoute({
    operationId: 'credits.latestLedgerEntry',
    method: 'GET',
    path: '/v1/credit/{credit}/ledger/latest',
    auth: 'K/B',
    tag: 'Credits',
    summary: "The human's latest ledger entry, which carries the current balance (human from `x-human-id` or the usage token)",
    request: { params },
    success: { kind: 'json', schema: CreditLedgerEntry },
    errors: [404],
  }),
};
