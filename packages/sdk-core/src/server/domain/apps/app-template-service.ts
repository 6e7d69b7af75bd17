import type { App } from '../../../contract/apps.js';
import type { Store } from '../../store/database.js';
import { DocumentStore, type AccessScope, type StoredDocument } from '../../store/document-store.js';
import { found } from '../access.js';
import type { Principal } from '../../kernel/principal.js';
import { APP_TEMPLATE_KIND, copyGraph } from './app-documents.js';
import type { AppService } from './app-service.js';
import { appTemplates, type BuiltInGraph } from './built-in-graphs.js';

type TemplateData = Omit<BuiltInGraph, 'id'> & { graph: Record<string, unknown> };

/** Built-in app templates (global documents); applying one creates a project app at version 1. */
export class AppTemplateService {
  private readonly templates: DocumentStore<TemplateData>;

  constructor(
    store: Store,
    private readonly apps: AppService,
  ) {
    this.templates = new DocumentStore(store, APP_TEMPLATE_KIND);
  }

  /** Writes the built-in templates (idempotent; runs at every start). */
  async seed(): Promise<void> {
    for (const { id, ...data } of appTemplates) {
      await this.templates.upsert({ id, project: null, name: data.name, data });
    }
  }

  private scope(principal: Principal): AccessScope {
    return { project: principal.project, human: null, includeGlobal: true };
  }

  /** A template shown as an App (templates are not versioned: always version 1). */
  private toApp(document: StoredDocument<TemplateData>): App {
    const { name, description, graph } = document.data;
    return { id: document.id, name, description, version: 1, graph, created_at: document.createdAt };
  }

  async list(principal: Principal): Promise<App[]> {
    const documents = await this.templates.all(this.scope(principal), { order: 'asc' });
    return documents.map((document) => this.toApp(document));
  }

  async retrieve(principal: Principal, id: string): Promise<App> {
    return this.toApp(found(await this.templates.find(id, this.scope(principal)), 'app template', id));
  }

  /** A new app of the caller's project (and human) with the template's graph. */
  async apply(principal: Principal, id: string, name: string): Promise<App> {
    const template = found(await this.templates.find(id, this.scope(principal)), 'app template', id);
    return this.apps.createFrom(principal, {
      name,
      description: template.data.description,
      graph: copyGraph(template.data.graph),
      inputs: null,
    });
  }
}
