/**
 * The store's operations whose SQL differs between SQLite and PostgreSQL, each written once here so no code outside
 * `store/` branches on the database (decision 0088; `tests/architecture/dialect-in-store.test.ts` checks it).
 */
export { isUniqueViolation } from './unique-violation.js';
export { lockedRead, lockRows, serialiseOn } from './locks.js';
export { appendLedgerEntry, type LedgerAppend, type LedgerAppendOutcome } from './ledger-append.js';
export { commitUsage, writeUsage, type UsageWrite } from './usage-writes.js';
export { claimDueDeliveries, writeOutbox, type DeliveryClaim, type OutboxWrite } from './outbox.js';
