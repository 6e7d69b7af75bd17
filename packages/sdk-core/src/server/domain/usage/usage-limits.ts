import type { UsageLimits, UsageType } from '../../../contract/usage.js';
import type { Store } from '../../store/database.js';
import { nowIso } from '../../store/ids.js';

/** Per-human usage limits (the deprecated limits API); enforcement lives with usage metering. */
export class UsageLimitService {
  constructor(private readonly store: Store) {}

  /** Replaces the human's limits with `limits`. */
  async set(project: string, human: string, limits: UsageLimits): Promise<void> {
    await this.store.transaction(async (trx) => {
      await trx.deleteFrom('usage_limits').where('project', '=', project).where('human', '=', human).execute();
      const updatedAt = nowIso();
      // The last value given for a type wins.
      const byType = new Map(limits.map((limit) => [limit.type, limit.value]));
      for (const [type, value] of byType) {
        await trx.insertInto('usage_limits').values({ project, human, type, value, updated_at: updatedAt }).execute();
      }
    });
  }

  /** The human's limit for one usage type, or undefined when none is set. */
  async limitFor(project: string, human: string, type: UsageType): Promise<number | undefined> {
    const row = await this.store.db
      .selectFrom('usage_limits')
      .select('value')
      .where('project', '=', project)
      .where('human', '=', human)
      .where('type', '=', type)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.value);
  }

  async get(project: string, human: string): Promise<UsageLimits> {
    const rows = await this.store.db
      .selectFrom('usage_limits')
      .select(['type', 'value'])
      .where('project', '=', project)
      .where('human', '=', human)
      .orderBy('type')
      .execute();
    return rows.map((row) => ({ type: row.type as UsageType, value: Number(row.value) }));
  }
}
