import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { creditRoutes } from '../../contract/credits.js';
import type { RequestOptions } from '../http-client.js';
import type { PagePromise } from '../page-promise.js';
import { Resource } from '../resource.js';

type Routes = typeof creditRoutes;
export type Credit = RouteOutput<Routes['retrieve']>;
export type CreditLedgerEntry = RouteOutput<Routes['latestLedgerEntry']>;

/** Credits (currencies) and each human's ledger of signed entries with the resulting balance. */
export class Credits extends Resource {
  /** @example const credit = await client.credits.create({ name: 'minutes', description: 'Talk time', allow_negative_balance: false }) */
  create(body: RouteInput<Routes['create']>['body'], options?: RequestOptions): Promise<Credit> {
    return this.http.call<Routes['create']>({ method: 'POST', path: '/v1/credit' }, { body }, options);
  }

  retrieve(creditId: string, options?: RequestOptions): Promise<Credit> {
    return this.http.call<Routes['retrieve']>({ method: 'GET', path: '/v1/credit/{credit}' }, { params: { credit: creditId } }, options);
  }

  list(query: RouteInput<Routes['list']>['query'] = {}, options?: RequestOptions): PagePromise<Credit> {
    return this.http.list<Routes['list']>({ method: 'GET', path: '/v1/credit/list' }, { query }, options);
  }

  /**
   * Adds a signed entry to a human's balance (API key; the human comes from the client's `humanId` or
   * `options.headers['x-human-id']`). Retrying with the same `idempotency_key` returns the original entry.
   *
   * @example
   * const entry = await client.credits.createLedgerEntry(credit.id, { amount: -5, idempotency_key: `call-${callId}` }, { headers: { 'x-human-id': 'user-42' } });
   * console.log(entry.balance);
   */
  createLedgerEntry(creditId: string, body: RouteInput<Routes['createLedgerEntry']>['body'], options?: RequestOptions): Promise<CreditLedgerEntry> {
    return this.http.call<Routes['createLedgerEntry']>({ method: 'POST', path: '/v1/credit/{credit}/ledger' }, { params: { credit: creditId }, body }, options);
  }

  /** The human's latest entry; its `balance` is the current balance. */
  latestLedgerEntry(creditId: string, options?: RequestOptions): Promise<CreditLedgerEntry> {
    return this.http.call<Routes['latestLedgerEntry']>({ method: 'GET', path: '/v1/credit/{credit}/ledger/latest' }, { params: { credit: creditId } }, options);
  }
}
