import type { App, AppVersions, CreateAppRequest, UpdateAppRequest } from '../../../contract/apps.js';
import { BadRequestError, NotFoundError } from '../../../errors/api-error.js';
import type { Store } from '../../store/database.js';
import { isUniqueViolation } from '../../store/dialect/index.js';
import { DocumentStore, quotaFor, type AccessScope, type StoredDocument } from '../../store/document-store.js';
import { newId } from '../../store/ids.js';
import type { PageRequest } from '../../store/pagination.js';
import { assertWritable, found, ownerOf, scopeOf } from '../access.js';
import type { Principal } from '../../kernel/principal.js';
import { APP_KIND, APP_VERSION_KIND, copyGraph, emptyGraph, toApp, versionDocumentId, type AppRecordData, type AppVersionData } from './app-documents.js';
import { exampleApps } from './built-in-graphs.js';
import type { GraphChecker } from './graph-checker.js';

/** What a new app starts from: an empty graph, a clone of another app, or a template. */
export interface AppContent {
  name: string;
  description: string;
  graph: Record<string, unknown>;
  inputs: AppVersionData['inputs'];
}

/**
 * Apps (graphs) with immutable versions. The `app` document holds the newest and published version
 * numbers; every version is its own `app_version` document whose parent is the app. Writers of one app are
 * serialised by the app row's lock (`DocumentStore.update`), and version ids are deterministic, so of two
 * updates based on the same version exactly one wins. See docs/decisions/0011-app-versions.md.
 * Array answers (list, examples) hold at most `MAX_ARRAY_ANSWER` apps, newest first.
 */
export class AppService {
  private readonly apps: DocumentStore<AppRecordData>;
  private readonly versions: DocumentStore<AppVersionData>;

  constructor(
    private readonly store: Store,
    private readonly checker?: GraphChecker,
  ) {
    this.apps = new DocumentStore(store, APP_KIND);
    this.versions = new DocumentStore(store, APP_VERSION_KIND);
  }

  /** Writes the built-in example apps (idempotent; runs at every start). */
  async seedExamples(): Promise<void> {
    for (const { id, name, description, graph } of exampleApps) {
      await this.apps.upsert({ id, project: null, name, data: { newest: 1, published: 1 } });
      await this.versions.upsert({
        id: versionDocumentId(id, 1),
        project: null,
        parent: id,
        name,
        data: { name, description, graph, inputs: null, version: 1 },
      });
    }
  }

  /** Apps the caller can read: its own (human-scoped as usual) and the built-in examples. */
  private readScope(principal: Principal): AccessScope {
    return scopeOf(principal, { includeGlobal: true });
  }

  private async findApp(principal: Principal, id: string): Promise<StoredDocument<AppRecordData>> {
    return found(await this.apps.find(id, this.readScope(principal)), 'app', id);
  }

  private async findVersion(scope: AccessScope, appId: string, version: number, executor = this.store.db): Promise<StoredDocument<AppVersionData>> {
    const document = await this.versions.find(versionDocumentId(appId, version), scope, executor);
    if (!document) throw new NotFoundError(`app '${appId}' has no version ${version}`);
    return document;
  }

  /** Creates an app at version 1 with the given content (also used by templates). */
  async createFrom(principal: Principal, content: AppContent): Promise<App> {
    const id = newId('app');
    return this.store.transaction(async (transaction) => {
      const owner = { project: principal.project, human: ownerOf(principal) };
      await this.apps.insert({ id, ...owner, name: content.name, data: { newest: 1, published: null } }, transaction, quotaFor(principal));
      const version = await this.versions.insert(
        { id: versionDocumentId(id, 1), ...owner, parent: id, name: content.name, data: { ...content, version: 1 } },
        transaction,
      );
      return toApp(id, version);
    });
  }

  async create(principal: Principal, input: CreateAppRequest): Promise<App> {
    if (input.existing_app_id === undefined) {
      return this.createFrom(principal, { name: input.name, description: '', graph: emptyGraph(), inputs: null });
    }
    const source = await this.findApp(principal, input.existing_app_id);
    const newest = await this.findVersion(this.readScope(principal), source.id, source.data.newest);
    return this.createFrom(principal, {
      name: input.name,
      description: newest.data.description,
      graph: copyGraph(newest.data.graph),
      inputs: newest.data.inputs,
    });
  }

  /** The app at `version`, or at its newest version when omitted. */
  async retrieve(principal: Principal, id: string, version?: number): Promise<App> {
    const app = await this.findApp(principal, id);
    return toApp(id, await this.findVersion(this.readScope(principal), id, version ?? app.data.newest));
  }

  /** The app at `version`, else its published version, else its newest (what `POST /v1/app/run` runs). */
  async runnable(principal: Principal, id: string, version?: number): Promise<App> {
    const app = await this.findApp(principal, id);
    return toApp(id, await this.findVersion(this.readScope(principal), id, version ?? app.data.published ?? app.data.newest));
  }

  /** Saves version newest+1; `input.version` must name the newest version (else 400 stale version). */
  async update(principal: Principal, id: string, input: UpdateAppRequest): Promise<App> {
    const scope = this.readScope(principal);
    if (input.graph !== undefined && this.checker) {
      assertWritable(await this.findApp(principal, id), principal, 'app');
      await this.checker.check(principal, 'graph', input.graph);
    }
    let created: StoredDocument<AppVersionData> | undefined;
    try {
      const updated = await this.apps.update(
        id,
        scope,
        async (app, transaction) => {
          assertWritable(app, principal, 'app');
          const newest = app.data.newest;
          if (input.version !== newest) throw new BadRequestError(`version: stale version: newest is ${newest}`);
          const base = await this.findVersion(scope, id, newest, transaction);
          const next = newest + 1;
          const data: AppVersionData = {
            name: input.name ?? base.data.name,
            description: base.data.description,
            version: next,
            graph: input.graph ?? base.data.graph,
            inputs: input.inputs ?? base.data.inputs,
          };
          created = await this.versions.insert(
            { id: versionDocumentId(id, next), project: app.project, human: app.human, parent: id, name: data.name, data },
            transaction,
          );
          return { ...app.data, newest: next };
        },
        () => ({ name: created?.data.name }),
      );
      found(updated, 'app', id);
      return toApp(id, created!);
    } catch (error) {
      // Safety net: a concurrent writer created the same version first.
      if (!isUniqueViolation(error)) throw error;
      const current = await this.findApp(principal, id);
      throw new BadRequestError(`version: stale version: newest is ${current.data.newest}`, { cause: error });
    }
  }

  /** Marks `version` as the app's one published version. */
  async publish(principal: Principal, id: string, version: number): Promise<App> {
    const scope = this.readScope(principal);
    let published: StoredDocument<AppVersionData> | undefined;
    const updated = await this.apps.update(id, scope, async (app, transaction) => {
      assertWritable(app, principal, 'app');
      if (version > app.data.newest) {
        throw new BadRequestError(`version: app '${id}' has no version ${version} (newest is ${app.data.newest})`);
      }
      published = await this.findVersion(scope, id, version, transaction);
      await this.checker?.check(principal, 'graph', published.data.graph);
      return { ...app.data, published: version };
    });
    found(updated, 'app', id);
    return toApp(id, published!);
  }

  /** The newest, the published and a page of all versions (newest first). */
  async versionsOf(principal: Principal, id: string, page: PageRequest): Promise<AppVersions> {
    const app = await this.findApp(principal, id);
    const scope = this.readScope(principal);
    const newest = await this.findVersion(scope, id, app.data.newest);
    const published = app.data.published === null ? undefined : await this.findVersion(scope, id, app.data.published);
    const all = await this.versions.list(scope, { ...page, parent: id, order: 'desc' });
    return {
      newest: toApp(id, newest),
      ...(published ? { published: toApp(id, published) } : {}),
      all: { items: all.values.map((version) => toApp(id, version)), total_count: all.total_count, next_page: all.next_page },
    };
  }

  /** Soft delete: the app disappears from reads and lists, its documents are kept. */
  async delete(principal: Principal, id: string): Promise<void> {
    const app = await this.findApp(principal, id);
    assertWritable(app, principal, 'app');
    const deleted = await this.apps.delete(id, scopeOf(principal), { soft: true });
    if (!deleted) throw new NotFoundError(`app '${id}' not found`);
  }

  /** `apps` at their newest versions (the store binds the version ids in small chunks). */
  private async withNewest(scope: AccessScope, apps: StoredDocument<AppRecordData>[]): Promise<App[]> {
    if (apps.length === 0) return [];
    const ids = apps.map((app) => versionDocumentId(app.id, app.data.newest));
    const versions = new Map((await this.versions.all(scope, { ids })).map((version) => [version.parent, version]));
    return apps.flatMap((app) => {
      const version = versions.get(app.id);
      return version ? [toApp(app.id, version)] : [];
    });
  }

  /** The project's apps at their newest versions, most recently created first (at most `MAX_ARRAY_ANSWER`). */
  async list(principal: Principal): Promise<App[]> {
    const scope = scopeOf(principal);
    return this.withNewest(scope, await this.apps.all(scope));
  }

  /** The built-in example apps. */
  async examples(principal: Principal): Promise<App[]> {
    const scope: AccessScope = { project: principal.project, human: null, includeGlobal: true };
    const examples = await this.apps.all(scope, { order: 'asc', builtInOnly: true });
    return this.withNewest(scope, examples);
  }
}
