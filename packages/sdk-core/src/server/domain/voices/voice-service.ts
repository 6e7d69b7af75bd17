import type { UpdateVoiceRequest, Voice } from '../../../contract/voices.js';
import type { Store } from '../../store/database.js';
import { DocumentStore, quotaFor, type StoredDocument } from '../../store/document-store.js';
import { newId } from '../../store/ids.js';
import type { Page, PageRequest } from '../../store/pagination.js';
import { assertWritable, found, ownerOf, scopeOf } from '../access.js';
import type { Principal } from '../../kernel/principal.js';
import { BUILTIN_VOICES, BUILTIN_VOICES_CREATED_AT } from './builtin-voices.js';
import { voiceTag } from './voice-tags.js';

/** What a voice document stores (the row carries id, project, human and creation time). */
export type VoiceData = Omit<Voice, 'id' | 'created_at' | 'project' | 'human'>;

/** A project voice to store, e.g. one cloned from a recording. */
export type NewProjectVoice = Pick<Voice, 'name' | 'language'> &
  Partial<Pick<Voice, 'service' | 'model' | 'voice' | 'embeddings' | 'preview_url' | 'lora' | '_extra' | 'pricing'>> & {
    /** Tag names; display names are derived. */
    tags?: readonly string[];
  };

/** Pricing of voices that do not state their own. */
const DEFAULT_PRICING: Voice['pricing'] = { price_per_second: '0.0001', currency: 'USD', product_name: 'palaver-embedded-tts' };

/**
 * Voices: the built-in catalog (global documents of kind `voice`, read-only) and project voices.
 * Personas validate their `voice` against the same documents.
 */
export class VoiceService {
  private readonly documents: DocumentStore<VoiceData>;

  constructor(store: Store) {
    this.documents = new DocumentStore(store, 'voice');
  }

  private toVoice(document: StoredDocument<VoiceData>): Voice {
    return { ...document.data, id: document.id, created_at: document.createdAt, project: document.project, human: document.human };
  }

  /** Inserts or refreshes the built-in catalog (run at server start; idempotent). */
  async seedCatalog(): Promise<void> {
    for (const { id, ...data } of BUILTIN_VOICES) {
      await this.documents.upsert({
        id,
        project: null,
        name: data.name,
        tags: data.tags.map((tag) => tag.name),
        data,
        createdAt: BUILTIN_VOICES_CREATED_AT,
      });
    }
  }

  /**
   * A built-in voice or a voice of the caller's project.
   *
   * @example
   * const voice = await services.voices.retrieve(principal, 'flite-slt');
   */
  async retrieve(principal: Principal, id: string): Promise<Voice> {
    return this.toVoice(found(await this.documents.find(id, scopeOf(principal, { includeGlobal: true })), 'voice', id));
  }

  /** Built-in and project voices, catalog first, optionally only those carrying every tag in `tags`. */
  async list(principal: Principal, options: PageRequest & { tags?: readonly string[] | undefined }): Promise<Page<Voice>> {
    const page = await this.documents.list(scopeOf(principal, { includeGlobal: true }), {
      page: options.page,
      pageSize: options.pageSize,
      order: 'asc',
      ...(options.tags && options.tags.length > 0 ? { tags: options.tags } : {}),
    });
    return { ...page, values: page.values.map((document) => this.toVoice(document)) };
  }

  /**
   * Stores a voice of the caller's project (and human, when scoped), e.g. the result of cloning.
   *
   * @example
   * await services.voices.createProjectVoice(principal, { name: 'My voice', language: 'en', service: 'espeak-ng', voice: 'en-us' });
   */
  async createProjectVoice(principal: Principal, input: NewProjectVoice): Promise<Voice> {
    const { tags = [], pricing = DEFAULT_PRICING, ...rest } = input;
    const data: VoiceData = { ...rest, tags: [...new Set(tags)].map(voiceTag), pricing };
    const document = await this.documents.insert(
      {
        id: newId('voice'),
        project: principal.project,
        human: ownerOf(principal),
        name: data.name,
        tags: data.tags.map((tag) => tag.name),
        data,
      },
      undefined,
      quotaFor(principal),
    );
    return this.toVoice(document);
  }

  /** Renames, relabels and retags a project voice; built-in voices are read-only (403). */
  async update(principal: Principal, id: string, request: UpdateVoiceRequest): Promise<Voice> {
    // Built-ins are in the scope so that changing one is a 403 (from assertWritable), not a 404.
    const updated = await this.documents.update(
      id,
      scopeOf(principal, { includeGlobal: true }),
      (current) => {
        assertWritable(current, principal, 'voice');
        const tags = request.tags === undefined ? current.data.tags : [...new Set(request.tags)].map(voiceTag);
        return { ...current.data, name: request.name, language: request.language, tags };
      },
      (data) => ({ name: data.name, tags: data.tags.map((tag) => tag.name) }),
    );
    return this.toVoice(found(updated, 'voice', id));
  }

  /** Deletes a project voice; built-in voices are read-only (403). */
  async delete(principal: Principal, id: string): Promise<void> {
    const current = found(await this.documents.find(id, scopeOf(principal, { includeGlobal: true })), 'voice', id);
    assertWritable(current, principal, 'voice');
    await this.documents.delete(id, scopeOf(principal));
  }
}
