import type { CreateScenarioRequest, Scenario, UpdateScenarioRequest } from '../../../contract/scenarios.js';
import { BadRequestError } from '../../../errors/api-error.js';
import type { Store } from '../../store/database.js';
import { DocumentStore, quotaFor, type StoredDocument } from '../../store/document-store.js';
import { newId } from '../../store/ids.js';
import type { Page, PageRequest } from '../../store/pagination.js';
import { assertWritable, found, ownerOf, scopeOf } from '../access.js';
import type { Principal } from '../../kernel/principal.js';

type ScenarioData = Pick<Scenario, 'name' | 'prompt'>;

/** Scenarios: the instructions an agent follows in a conversation. */
export class ScenarioService {
  private readonly documents: DocumentStore<ScenarioData>;

  constructor(store: Store) {
    this.documents = new DocumentStore(store, 'scenario');
  }

  private toScenario(document: StoredDocument<ScenarioData>): Scenario {
    return {
      id: document.id,
      created_at: document.createdAt,
      project: document.project ?? '',
      human: document.human,
      name: document.data.name,
      prompt: document.data.prompt,
    };
  }

  /** The request names the project; it must be the caller's own (objects never cross projects). */
  private assertProject(principal: Principal, project: string | undefined): void {
    if (project !== undefined && project !== principal.project) {
      throw new BadRequestError(`project: must be the caller's project ('${principal.project}')`);
    }
  }

  async create(principal: Principal, input: CreateScenarioRequest): Promise<Scenario> {
    this.assertProject(principal, input.project);
    const document = await this.documents.insert(
      {
        id: newId('scenario'),
        project: principal.project,
        human: ownerOf(principal),
        name: input.name,
        data: { name: input.name, prompt: input.prompt },
      },
      undefined,
      quotaFor(principal),
    );
    return this.toScenario(document);
  }

  async retrieve(principal: Principal, id: string): Promise<Scenario> {
    return this.toScenario(found(await this.documents.find(id, scopeOf(principal)), 'scenario', id));
  }

  async update(principal: Principal, id: string, patch: UpdateScenarioRequest): Promise<Scenario> {
    this.assertProject(principal, patch.project);
    const updated = await this.documents.update(
      id,
      scopeOf(principal),
      (current) => {
        assertWritable(current, principal, 'scenario');
        return { name: patch.name ?? current.data.name, prompt: patch.prompt ?? current.data.prompt };
      },
      (data) => ({ name: data.name }),
    );
    return this.toScenario(found(updated, 'scenario', id));
  }

  async delete(principal: Principal, id: string): Promise<void> {
    const scope = scopeOf(principal);
    const current = found(await this.documents.find(id, scope), 'scenario', id);
    assertWritable(current, principal, 'scenario');
    await this.documents.delete(id, scope);
  }

  async list(principal: Principal, page: PageRequest): Promise<Page<Scenario>> {
    const result = await this.documents.list(scopeOf(principal), page);
    return { ...result, values: result.values.map((document) => this.toScenario(document)) };
  }
}
