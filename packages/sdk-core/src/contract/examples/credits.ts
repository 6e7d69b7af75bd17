import type { creditRoutes } from '../credits.js';
import type { GroupExamples } from './route-example.js';
import { at, ids } from './sample-resources.js';

const credit = {
  id: ids.credit,
  created_at: at(6),
  project: ids.project,
  name: 'Talk minutes',
  description: 'Minutes of conversation a human has left.',
  allow_negative_balance: false,
};

const entry = {
  id: ids.ledgerEntry,
  created_at: at(7),
  credit: ids.credit,
  human: ids.human,
  amount: 600,
  balance: 600,
  idempotency_key: 'grant-2025-06',
};

export const creditExamples: GroupExamples<typeof creditRoutes> = {
  create: { body: { name: credit.name, description: credit.description, allow_negative_balance: false }, response: credit },
  list: { response: { values: [credit], total_count: 1, next_page: null } },
  retrieve: { params: { credit: ids.credit }, response: credit },
  createLedgerEntry: {
    description: 'Grants 600 to the human named by `x-human-id`.',
    human: ids.human,
    params: { credit: ids.credit },
    body: { amount: 600, idempotency_key: 'grant-2025-06' },
    response: entry,
  },
  latestLedgerEntry: { human: ids.human, params: { credit: ids.credit }, response: entry },
};
