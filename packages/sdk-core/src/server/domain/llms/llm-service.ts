import type { Llm, LlmCreateRequest } from '../../../contract/llms.js';
import { BadRequestError } from '../../../errors/api-error.js';
import type { ServerConfig } from '../../kernel/config.js';
import type { Store } from '../../store/database.js';
import { DocumentStore, quotaFor, type StoredDocument } from '../../store/document-store.js';
import { newId } from '../../store/ids.js';
import type { Page, PageRequest } from '../../store/pagination.js';
import { assertWritable, found, ownerOf, scopeOf } from '../access.js';
import type { Principal } from '../../kernel/principal.js';
import type { SecretService } from '../secrets/secret-service.js';
import { BUILT_IN_PREFIX, builtInLlms, type LlmData } from './built-in-llms.js';
import { maskHeaders } from './header-masking.js';
import { assertLiteralAddressAllowed } from './literal-address.js';
import { secretReferences, substituteSecrets } from './secret-references.js';
import type { ChangeNotices } from '../change-notices.js';

/**
 * LLM definitions: the platform's built-ins (global, read-only, seeded from the config at start) and the
 * project's OpenAI-compatible endpoints. Header values may reference secrets as `{{secret:NAME}}`; they
 * are stored as written and only {@link LlmService.resolveHeaders} substitutes the values, server-side.
 * Human-scoped callers see the literal header values of LLMs they do not own masked
 * (docs/decisions/0012-llm-header-masking.md).
 */
export class LlmService {
  private readonly documents: DocumentStore<LlmData>;
  private changes = 0;

  /**
   * Grows with every change to an LLM or a secret (made here, or announced by another instance), so what was
   * resolved from them (the gateway's models) can tell it is stale.
   */
  get revision(): number {
    return this.changes + this.secrets.revision;
  }

  constructor(
    private readonly store: Store,
    private readonly secrets: SecretService,
    private readonly config: ServerConfig['llm'],
    private readonly notices?: Pick<ChangeNotices, 'announce'>,
  ) {
    this.documents = new DocumentStore(store, 'llm');
  }

  /** Another instance changed an LLM: what was resolved from the old definitions is stale. */
  noteChange(): void {
    this.changes += 1;
  }

  private async changed(): Promise<void> {
    this.changes += 1;
    await this.notices?.announce('llms');
  }

  /**
   * The LLM as `principal` may see it: API keys without a human (the project's owner) see header values
   * as stored; a human-scoped caller (usage token, or API key with `x-human-id`) sees them as stored only
   * on its own LLMs and masked on shared and built-in ones, which may carry the project's literal keys.
   */
  private toLlm(document: StoredDocument<LlmData>, principal: Principal): Llm {
    const llm: Llm = { id: document.id, created_at: document.createdAt, project: document.project, ...document.data };
    const owned = principal.human === null || document.human === principal.human;
    return owned || llm.headers === undefined ? llm : { ...llm, headers: maskHeaders(llm.headers) };
  }

  /** The configured address policy applied, at definition time, to a literal host in `post_url`. */
  private assertPostUrl(postUrl: string | undefined): void {
    if (postUrl === undefined) return;
    assertLiteralAddressAllowed('post_url', postUrl, { allowLoopback: this.config.allowLoopback, allowPrivateNetworks: this.config.allowPrivateNetworks });
  }

  /**
   * Inserts or refreshes the built-ins of the current config (stable ids, so references survive
   * restarts) and removes built-ins whose upstream is no longer configured.
   */
  async seedBuiltIns(): Promise<void> {
    const wanted = builtInLlms(this.config);
    for (const llm of wanted) await this.documents.upsert({ id: llm.id, project: null, name: llm.data.name, data: llm.data });
    await this.store.db
      .deleteFrom('documents')
      .where('kind', '=', 'llm')
      .where('project', 'is', null)
      .where('id', 'like', `${BUILT_IN_PREFIX}%`)
      .where(
        'id',
        'not in',
        wanted.map((llm) => llm.id),
      )
      .execute();
    // Deleted around DocumentStore: what it kept of the built-ins is dropped.
    this.store.documentReads?.forgetKind(this.documents.kind);
  }

  /** Every referenced secret must exist and be usable by the LLM's owner (see `SecretService`). */
  private async assertSecretReferences(project: string, owner: string | null, headers: LlmCreateRequest['headers']): Promise<void> {
    for (const [index, header] of headers.entries()) {
      let names: string[];
      try {
        names = secretReferences(header.value);
      } catch (error) {
        throw new BadRequestError(`headers[${index}].value: ${(error as Error).message}`);
      }
      for (const name of names) {
        if (!(await this.secrets.isUsable(project, name, owner))) {
          const whose = owner === null ? 'project-wide secret' : `secret of human '${owner}'`;
          throw new BadRequestError(`headers[${index}].value: no ${whose} named '${name}' (create it with POST /v1/secret first)`);
        }
      }
    }
  }

  private dataOf(input: LlmCreateRequest): LlmData {
    return {
      name: input.name,
      type: 'openai_compatible',
      description: input.description,
      compliance: false,
      service_tool_calling: true,
      headers: input.headers.map((header) => ({ key: header.key, value: header.value })),
      model: input.model,
      ...(input.post_url !== undefined ? { post_url: input.post_url } : {}),
    };
  }

  async create(principal: Principal, input: LlmCreateRequest): Promise<Llm> {
    const owner = ownerOf(principal);
    this.assertPostUrl(input.post_url);
    await this.assertSecretReferences(principal.project, owner, input.headers);
    const data = this.dataOf(input);
    const document = await this.documents.insert(
      { id: newId('llm'), project: principal.project, human: owner, name: data.name, data },
      undefined,
      quotaFor(principal),
    );
    return this.toLlm(document, principal);
  }

  async retrieve(principal: Principal, id: string): Promise<Llm> {
    return this.toLlm(found(await this.documents.find(id, scopeOf(principal, { includeGlobal: true })), 'llm', id), principal);
  }

  /** Replaces the definition (the request is a full LLMCreateRequest). Built-ins are read-only (403). */
  async update(principal: Principal, id: string, input: LlmCreateRequest): Promise<Llm> {
    const current = found(await this.documents.find(id, scopeOf(principal, { includeGlobal: true })), 'llm', id);
    assertWritable(current, principal, 'llm');
    this.assertPostUrl(input.post_url);
    await this.assertSecretReferences(principal.project, current.human, input.headers);
    const data = this.dataOf(input);
    const updated = await this.documents.replace(id, scopeOf(principal), data, { name: data.name });
    await this.changed();
    return this.toLlm(found(updated, 'llm', id), principal);
  }

  async delete(principal: Principal, id: string): Promise<void> {
    const current = found(await this.documents.find(id, scopeOf(principal, { includeGlobal: true })), 'llm', id);
    assertWritable(current, principal, 'llm');
    await this.documents.delete(id, scopeOf(principal));
    await this.changed();
  }

  /** Built-ins and the project's LLMs (for a human: shared ones and that human's own). */
  async list(principal: Principal, page: PageRequest): Promise<Page<Llm>> {
    const result = await this.documents.list(scopeOf(principal, { includeGlobal: true }), page);
    return { ...result, values: result.values.map((document) => this.toLlm(document, principal)) };
  }

  /**
   * The headers to send to the LLM's upstream, with every `{{secret:NAME}}` replaced by the secret's value.
   * For server-side use only (the LLM gateway): the result must never reach a response or a log.
   * Throws 404 when the caller cannot see the LLM and 400 when a referenced secret no longer exists.
   *
   * @example
   * const headers = await services.llms.resolveHeaders(principal, 'llm_01...');
   * await fetch(llm.post_url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
   */
  async resolveHeaders(principal: Principal, llm: Llm | string): Promise<Record<string, string>> {
    const id = typeof llm === 'string' ? llm : llm.id;
    const document = found(await this.documents.find(id, scopeOf(principal, { includeGlobal: true })), 'llm', id);
    const headers: Record<string, string> = {};
    for (const header of document.data.headers ?? []) {
      const values = new Map<string, string>();
      for (const name of secretReferences(header.value)) {
        const value = document.project === null ? undefined : await this.secrets.reveal(document.project, name, { human: document.human });
        if (value === undefined) throw new BadRequestError(`llm '${id}': header '${header.key}' references secret '${name}', which no longer exists`);
        values.set(name, value);
      }
      headers[header.key] = substituteSecrets(header.value, values);
    }
    return headers;
  }
}
