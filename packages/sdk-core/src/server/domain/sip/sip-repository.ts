import { SIPDispatchRuleInfo, SIPInboundTrunkInfo, SIPOutboundTrunkInfo, Timestamp } from '@livekit/protocol';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Store } from '../../store/database.js';
import { serialiseOn } from '../../store/dialect/index.js';
import type { Database } from '../../store/tables.js';

/** LiveKit's id shapes: `ST_` for trunks, `SDR_` for dispatch rules, then 12 random letters and digits. */
export function newSipId(prefix: 'ST' | 'SDR'): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return `${prefix}_${[...randomBytes(12)].map((byte) => alphabet[byte % alphabet.length]).join('')}`;
}

export type StoredTrunk =
  { project: string; direction: 'inbound'; trunk: SIPInboundTrunkInfo } | { project: string; direction: 'outbound'; trunk: SIPOutboundTrunkInfo };

const parse = { ignoreUnknownFields: true } as const;

/**
 * The `sip_trunks` and `sip_dispatch_rules` tables: LiveKit's protocol messages as JSON, one row each, owned by a
 * project. Nothing is cached in memory, so every instance on one database sees the same configuration.
 *
 * @example
 * const trunk = await repository.insertInbound('project_dev', new SIPInboundTrunkInfo({ name: 'office', numbers: ['+15550100'] }));
 */
export class SipRepository {
  constructor(
    private readonly store: Store,
    private readonly db: Kysely<Database> = store.db,
  ) {}

  /**
   * Runs `work` in one transaction that holds the project's SIP lock (an advisory lock on PostgreSQL; SQLite runs
   * transactions one at a time), with a repository bound to it: a change and the conflict checks it depends on see
   * the same rows, whichever instance makes it.
   */
  serialised<T>(project: string, work: (repository: SipRepository) => Promise<T>): Promise<T> {
    return this.store.transaction(async (transaction) => {
      await serialiseOn(this.store, transaction, `palaver:sip:${project}`);
      return work(new SipRepository(this.store, transaction));
    });
  }

  async insertInbound(project: string, trunk: SIPInboundTrunkInfo): Promise<SIPInboundTrunkInfo> {
    return this.insertTrunk(project, 'inbound', trunk);
  }

  async insertOutbound(project: string, trunk: SIPOutboundTrunkInfo): Promise<SIPOutboundTrunkInfo> {
    return this.insertTrunk(project, 'outbound', trunk);
  }

  private async insertTrunk<T extends SIPInboundTrunkInfo | SIPOutboundTrunkInfo>(project: string, direction: 'inbound' | 'outbound', trunk: T): Promise<T> {
    const now = new Date();
    trunk.sipTrunkId = newSipId('ST');
    trunk.createdAt = Timestamp.fromDate(now);
    trunk.updatedAt = Timestamp.fromDate(now);
    const at = now.toISOString();
    await this.db
      .insertInto('sip_trunks')
      .values({ id: trunk.sipTrunkId, project, direction, body: JSON.stringify(trunk.toJson()), created_at: at, updated_at: at })
      .execute();
    return trunk;
  }

  /** Replaces a stored trunk's body (an update); false when it is gone. */
  async replaceTrunk(project: string, trunk: SIPInboundTrunkInfo | SIPOutboundTrunkInfo): Promise<boolean> {
    const now = new Date();
    trunk.updatedAt = Timestamp.fromDate(now);
    const result = await this.db
      .updateTable('sip_trunks')
      .set({ body: JSON.stringify(trunk.toJson()), updated_at: now.toISOString() })
      .where('id', '=', trunk.sipTrunkId)
      .where('project', '=', project)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Trunks of a project (oldest first), of one direction. */
  async inboundTrunks(project: string): Promise<SIPInboundTrunkInfo[]> {
    const rows = await this.db
      .selectFrom('sip_trunks')
      .select('body')
      .where('project', '=', project)
      .where('direction', '=', 'inbound')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => SIPInboundTrunkInfo.fromJsonString(row.body, parse));
  }

  async outboundTrunks(project: string): Promise<SIPOutboundTrunkInfo[]> {
    const rows = await this.db
      .selectFrom('sip_trunks')
      .select('body')
      .where('project', '=', project)
      .where('direction', '=', 'outbound')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => SIPOutboundTrunkInfo.fromJsonString(row.body, parse));
  }

  /** Every project's inbound trunks, with their project: what an arriving call is matched against. */
  async allInboundTrunks(): Promise<Array<{ project: string; trunk: SIPInboundTrunkInfo }>> {
    const rows = await this.db
      .selectFrom('sip_trunks')
      .select(['project', 'body'])
      .where('direction', '=', 'inbound')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ project: row.project, trunk: SIPInboundTrunkInfo.fromJsonString(row.body, parse) }));
  }

  /** A trunk by id, in `project` (any project when undefined). */
  async trunk(id: string, project?: string): Promise<StoredTrunk | undefined> {
    let query = this.db.selectFrom('sip_trunks').select(['project', 'direction', 'body']).where('id', '=', id);
    if (project !== undefined) query = query.where('project', '=', project);
    const row = await query.executeTakeFirst();
    if (!row) return undefined;
    return row.direction === 'inbound'
      ? { project: row.project, direction: 'inbound', trunk: SIPInboundTrunkInfo.fromJsonString(row.body, parse) }
      : { project: row.project, direction: 'outbound', trunk: SIPOutboundTrunkInfo.fromJsonString(row.body, parse) };
  }

  async deleteTrunk(project: string, id: string): Promise<StoredTrunk | undefined> {
    const found = await this.trunk(id, project);
    if (!found) return undefined;
    const result = await this.db.deleteFrom('sip_trunks').where('id', '=', id).where('project', '=', project).executeTakeFirst();
    return result.numDeletedRows > 0n ? found : undefined;
  }

  async insertRule(project: string, rule: SIPDispatchRuleInfo): Promise<SIPDispatchRuleInfo> {
    const now = new Date();
    rule.sipDispatchRuleId = newSipId('SDR');
    rule.createdAt = Timestamp.fromDate(now);
    rule.updatedAt = Timestamp.fromDate(now);
    const at = now.toISOString();
    await this.db
      .insertInto('sip_dispatch_rules')
      .values({ id: rule.sipDispatchRuleId, project, body: JSON.stringify(rule.toJson()), created_at: at, updated_at: at })
      .execute();
    return rule;
  }

  async replaceRule(project: string, rule: SIPDispatchRuleInfo): Promise<boolean> {
    const now = new Date();
    rule.updatedAt = Timestamp.fromDate(now);
    const result = await this.db
      .updateTable('sip_dispatch_rules')
      .set({ body: JSON.stringify(rule.toJson()), updated_at: now.toISOString() })
      .where('id', '=', rule.sipDispatchRuleId)
      .where('project', '=', project)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async rules(project: string): Promise<SIPDispatchRuleInfo[]> {
    const rows = await this.db.selectFrom('sip_dispatch_rules').select('body').where('project', '=', project).orderBy('created_at').orderBy('id').execute();
    return rows.map((row) => SIPDispatchRuleInfo.fromJsonString(row.body, parse));
  }

  async rule(project: string, id: string): Promise<SIPDispatchRuleInfo | undefined> {
    const row = await this.db.selectFrom('sip_dispatch_rules').select('body').where('id', '=', id).where('project', '=', project).executeTakeFirst();
    return row && SIPDispatchRuleInfo.fromJsonString(row.body, parse);
  }

  async deleteRule(project: string, id: string): Promise<SIPDispatchRuleInfo | undefined> {
    const found = await this.rule(project, id);
    if (!found) return undefined;
    const result = await this.db.deleteFrom('sip_dispatch_rules').where('id', '=', id).where('project', '=', project).executeTakeFirst();
    return result.numDeletedRows > 0n ? found : undefined;
  }
}
