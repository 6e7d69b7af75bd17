import type { CreatePersonaRequest, Persona, UpdatePersonaRequest } from '../../../contract/personas.js';
import { BadRequestError } from '../../../errors/api-error.js';
import type { Store } from '../../store/database.js';
import { DocumentStore, quotaFor, type StoredDocument } from '../../store/document-store.js';
import { newId } from '../../store/ids.js';
import type { Page, PageRequest } from '../../store/pagination.js';
import { assertWritable, found, ownerOf, scopeOf } from '../access.js';
import type { Principal } from '../../kernel/principal.js';

type PersonaData = Omit<Persona, 'id' | 'created_at' | 'project' | 'human'>;

export class PersonaService {
  private readonly documents: DocumentStore<PersonaData>;
  private readonly voices: DocumentStore<unknown>;

  constructor(store: Store) {
    this.documents = new DocumentStore(store, 'persona');
    this.voices = new DocumentStore(store, 'voice');
  }

  private toPersona(document: StoredDocument<PersonaData>): Persona {
    return {
      id: document.id,
      created_at: document.createdAt,
      project: document.project ?? '',
      human: document.human,
      ...document.data,
    };
  }

  private async assertVoice(principal: Principal, voice: string): Promise<void> {
    if (!(await this.voices.find(voice, scopeOf(principal, { includeGlobal: true })))) {
      throw new BadRequestError(`voice: no voice with id '${voice}'`);
    }
  }

  async create(principal: Principal, input: CreatePersonaRequest): Promise<Persona> {
    await this.assertVoice(principal, input.voice);
    const document = await this.documents.insert(
      {
        id: newId('persona'),
        project: principal.project,
        human: ownerOf(principal),
        name: input.name,
        data: {
          name: input.name,
          description: input.description,
          voice: input.voice,
          image_url: input.image_url ?? null,
          gender: input.gender ?? null,
          tags: [],
        },
      },
      undefined,
      quotaFor(principal),
    );
    return this.toPersona(document);
  }

  async retrieve(principal: Principal, id: string): Promise<Persona> {
    return this.toPersona(found(await this.documents.find(id, scopeOf(principal)), 'persona', id));
  }

  async update(principal: Principal, id: string, patch: UpdatePersonaRequest): Promise<Persona> {
    // Validated before the row lock is taken, so the lock is held only for the merge and the write.
    if (patch.voice !== undefined) await this.assertVoice(principal, patch.voice);
    const updated = await this.documents.update(
      id,
      scopeOf(principal),
      (current) => {
        assertWritable(current, principal, 'persona');
        const data: PersonaData = { ...current.data };
        for (const [key, value] of Object.entries(patch)) if (value !== undefined) (data as Record<string, unknown>)[key] = value;
        return data;
      },
      (data) => ({ name: data.name }),
    );
    return this.toPersona(found(updated, 'persona', id));
  }

  async delete(principal: Principal, id: string): Promise<void> {
    const scope = scopeOf(principal);
    const current = found(await this.documents.find(id, scope), 'persona', id);
    assertWritable(current, principal, 'persona');
    await this.documents.delete(id, scope);
  }

  async list(principal: Principal, page: PageRequest): Promise<Page<Persona>> {
    const result = await this.documents.list(scopeOf(principal), page);
    return { ...result, values: result.values.map((document) => this.toPersona(document)) };
  }
}
