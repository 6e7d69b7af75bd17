import type { Kysely } from 'kysely';
import type { CreateSecretRequest, Secret } from '../../../contract/secrets.js';
import { BadRequestError } from '../../../errors/api-error.js';
import type { Store } from '../../store/database.js';
import { serialiseOn } from '../../store/dialect/index.js';
import type { Database } from '../../store/tables.js';
import { DocumentStore, quotaFor, type StoredDocument } from '../../store/document-store.js';
import { newId } from '../../store/ids.js';
import type { Page, PageRequest } from '../../store/pagination.js';
import { assertWritable, found, ownerOf, scopeOf } from '../access.js';
import type { Principal } from '../../kernel/principal.js';
import { decrypt, encrypt } from '../auth/encryption.js';
import type { ChangeNotices } from '../change-notices.js';

/** What the document table holds: the name and the AES-256-GCM sealed value, never the plaintext. */
interface SecretData {
  name: string;
  sealed: string;
}

const KIND = 'secret';

type Executor = Kysely<Database>;

/**
 * Write-only secrets of a project. Values are sealed with AES-256-GCM (associated data: the secret's id,
 * so a sealed value copied onto another secret does not open) and only {@link SecretService.reveal}
 * opens them, for server-side use such as LLM headers and tool web requests.
 *
 * Ownership rule for server-side use: a secret created by a human (usage token or `x-human-id`) can be
 * used only by that human's objects, and a project-wide secret only by project-wide objects, so an
 * end user holding a usage token can never point a request of their own at a project secret.
 *
 * Names are unique per owner: per (project, human), project-wide secrets having human null. So a usage
 * token can neither take a name the project needs (squatting) nor learn, from a "name taken" answer, the
 * names of other humans' secrets. A name resolves within one owner: the caller's human (or, for an API
 * key without `x-human-id`, the project-wide secrets); `{{secret:NAME}}` references resolve within the
 * owner of the object that holds them.
 */
export class SecretService {
  private readonly documents: DocumentStore<SecretData>;
  private changes = 0;

  /** Grows with every change to a secret, here or announced by another instance (caches of resolved values compare it). */
  get revision(): number {
    return this.changes;
  }

  /** Another instance changed a secret. */
  noteChange(): void {
    this.changes += 1;
  }

  private async changed(): Promise<void> {
    this.changes += 1;
    await this.notices?.announce('secrets');
  }

  constructor(
    private readonly store: Store,
    private readonly key: Uint8Array,
    private readonly notices?: Pick<ChangeNotices, 'announce'>,
  ) {
    this.documents = new DocumentStore(store, KIND);
  }

  private toSecret(document: StoredDocument<SecretData>): Secret {
    return { id: document.id, name: document.data.name, created_at: document.createdAt, updated_at: document.updatedAt };
  }

  /** The live secret named `name` owned by `human` (null: the project-wide one); names are unique per owner. */
  private async findByName(
    project: string,
    name: string,
    human: string | null,
    executor: Executor = this.store.db,
  ): Promise<StoredDocument<SecretData> | undefined> {
    const row = await executor
      .selectFrom('documents')
      .select('id')
      .where('kind', '=', KIND)
      .where('project', '=', project)
      .where('name', '=', name)
      .where((eb) => (human === null ? eb('human', 'is', null) : eb('human', '=', human)))
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    return this.documents.find(row.id, { project, human: null }, executor);
  }

  /**
   * Runs a write that sets a secret name of `human` (null: project-wide) inside a transaction that first
   * checks the name is free for that owner. SQLite serialises transactions; on PostgreSQL a
   * transaction-scoped advisory lock per owner serialises concurrent name changes, so two instances
   * cannot both create the same name.
   */
  private async withFreeName<T>(
    project: string,
    human: string | null,
    name: string,
    exceptId: string | undefined,
    write: (executor: Executor) => Promise<T>,
  ): Promise<T> {
    return this.store.transaction(async (transaction) => {
      await serialiseOn(this.store, transaction, `palaver:secret-names:${JSON.stringify([project, human])}`);
      const existing = await this.findByName(project, name, human, transaction);
      if (existing && existing.id !== exceptId) {
        const whose = human === null ? 'in this project' : `for human '${human}'`;
        throw new BadRequestError(`name: a secret named '${name}' already exists ${whose}`);
      }
      return write(transaction);
    });
  }

  /**
   * A secret by id, or by name when no id matches; undefined when the caller may not see it. Names resolve
   * within the caller's own namespace: its human's secrets, or the project-wide ones for an API key
   * without `x-human-id` (which reaches a human's secret by id).
   */
  private async lookup(principal: Principal, reference: string): Promise<StoredDocument<SecretData> | undefined> {
    const byId = await this.documents.find(reference, scopeOf(principal));
    if (byId) return byId;
    return this.findByName(principal.project, reference, principal.human);
  }

  async create(principal: Principal, input: CreateSecretRequest): Promise<Secret> {
    const id = newId('secret');
    const owner = ownerOf(principal);
    const document = await this.withFreeName(principal.project, owner, input.name, undefined, (executor) =>
      this.documents.insert(
        {
          id,
          project: principal.project,
          human: owner,
          name: input.name,
          data: { name: input.name, sealed: encrypt(this.key, input.value, id) },
        },
        executor,
        quotaFor(principal),
      ),
    );
    await this.changed();
    return this.toSecret(document);
  }

  /** Renames the secret and replaces its value (the request carries both). */
  async update(principal: Principal, reference: string, input: CreateSecretRequest): Promise<Secret> {
    const current = found(await this.lookup(principal, reference), 'secret', reference);
    assertWritable(current, principal, 'secret');
    const data: SecretData = { name: input.name, sealed: encrypt(this.key, input.value, current.id) };
    const updated = await this.withFreeName(principal.project, current.human, input.name, current.id, (executor) =>
      this.documents.replace(current.id, scopeOf(principal), data, { name: input.name }, executor),
    );
    await this.changed();
    return this.toSecret(found(updated, 'secret', reference));
  }

  async delete(principal: Principal, reference: string): Promise<Secret> {
    const current = found(await this.lookup(principal, reference), 'secret', reference);
    assertWritable(current, principal, 'secret');
    await this.documents.delete(current.id, scopeOf(principal));
    await this.changed();
    return this.toSecret(current);
  }

  async list(principal: Principal, page: PageRequest): Promise<Page<Secret>> {
    const result = await this.documents.list(scopeOf(principal), page);
    return { ...result, values: result.values.map((document) => this.toSecret(document)) };
  }

  /**
   * Whether `name` names a secret that objects owned by `human` (null: project-wide objects) may use.
   * Never opens the value.
   */
  async isUsable(project: string, name: string, human: string | null = null): Promise<boolean> {
    return (await this.findByName(project, name, human)) !== undefined;
  }

  /**
   * The plaintext value of a secret, for server-side use only (never put it in a response or a log).
   * `human` is the owner of the object that uses the secret; undefined when no usable secret has that name.
   *
   * @example
   * const apiKey = await services.secrets.reveal(project, 'UPSTREAM_KEY');
   */
  async reveal(project: string, name: string, options: { human?: string | null } = {}): Promise<string | undefined> {
    const document = await this.findByName(project, name, options.human ?? null);
    if (!document) return undefined;
    return decrypt(this.key, document.data.sealed, document.id);
  }
}
