import type { Kysely } from 'kysely';

/** One schema change. Written with Kysely's schema builder so it runs on SQLite and PostgreSQL alike. */
export interface Migration {
  /** Sortable unique name, `NNNN-topic`. */
  name: string;
  up: (db: Kysely<any>) => Promise<void>;
}
