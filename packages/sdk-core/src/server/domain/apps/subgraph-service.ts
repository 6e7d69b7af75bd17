import type { CreateSubGraphRequest, SubGraph, UpdateSubGraphRequest } from '../../../contract/subgraphs.js';
import { NotFoundError } from '../../../errors/api-error.js';
import type { Store } from '../../store/database.js';
import { DocumentStore, MAX_ARRAY_ANSWER, quotaFor, type StoredDocument } from '../../store/document-store.js';
import { newId } from '../../store/ids.js';
import { assertWritable, found, ownerOf, scopeOf } from '../access.js';
import type { Principal } from '../../kernel/principal.js';
import { SUBGRAPH_KIND, emptyGraph } from './app-documents.js';
import { defaultSubGraphs } from './built-in-graphs.js';
import { GraphChecker } from './graph-checker.js';

interface SubGraphData {
  name: string;
  description?: string;
  graph: Record<string, unknown>;
}

/** Reusable graph pieces: the project's own (writable) and the built-in defaults (read-only, `project` null). */
export class SubGraphService {
  private readonly documents: DocumentStore<SubGraphData>;

  private readonly checker: GraphChecker;

  constructor(store: Store) {
    this.documents = new DocumentStore(store, SUBGRAPH_KIND);
    this.checker = new GraphChecker(this);
  }

  /** The stored graph of a sub graph the principal may read (its own or a built-in); undefined when absent. */
  async graphOf(principal: Principal, id: string): Promise<unknown> {
    return (await this.documents.find(id, scopeOf(principal, { includeGlobal: true })))?.data.graph;
  }

  /** Writes the built-in sub graphs (idempotent; runs at every start). */
  async seed(): Promise<void> {
    for (const { id, ...data } of defaultSubGraphs) {
      await this.documents.upsert({ id, project: null, name: data.name, data });
    }
  }

  private toSubGraph(document: StoredDocument<SubGraphData>): SubGraph {
    return {
      id: document.id,
      name: document.data.name,
      created_at: document.createdAt,
      updated_at: document.updatedAt,
      graph: document.data.graph,
      project: document.project,
    };
  }

  async create(principal: Principal, input: CreateSubGraphRequest): Promise<SubGraph> {
    if (input.graph) await this.checker.check(principal, 'graph', input.graph);
    const document = await this.documents.insert(
      {
        id: newId('subgraph'),
        project: principal.project,
        human: ownerOf(principal),
        name: input.name,
        data: { name: input.name, graph: input.graph ?? emptyGraph() },
      },
      undefined,
      quotaFor(principal),
    );
    return this.toSubGraph(document);
  }

  /**
   * The project's sub graphs (newest first) followed by the built-in ones, at most `MAX_ARRAY_ANSWER` in
   * all: the built-ins always, then the newest project sub graphs that fit.
   */
  async list(principal: Principal): Promise<SubGraph[]> {
    const global = await this.builtIns(principal);
    const own = await this.documents.all(scopeOf(principal), { limit: MAX_ARRAY_ANSWER - global.length });
    return [...own, ...global].map((document) => this.toSubGraph(document));
  }

  /** The built-in sub graphs, oldest first. */
  private async builtIns(principal: Principal): Promise<StoredDocument<SubGraphData>[]> {
    return this.documents.all({ project: principal.project, human: null, includeGlobal: true }, { order: 'asc', builtInOnly: true });
  }

  async listDefault(principal: Principal): Promise<SubGraph[]> {
    return (await this.builtIns(principal)).map((document) => this.toSubGraph(document));
  }

  async retrieve(principal: Principal, id: string): Promise<SubGraph> {
    return this.toSubGraph(found(await this.documents.find(id, scopeOf(principal, { includeGlobal: true })), 'sub graph', id));
  }

  async update(principal: Principal, id: string, input: UpdateSubGraphRequest): Promise<SubGraph> {
    const current = found(await this.documents.find(id, scopeOf(principal, { includeGlobal: true })), 'sub graph', id);
    assertWritable(current, principal, 'sub graph');
    await this.checker.check(principal, 'graph', input.graph, id);
    const updated = await this.documents.update(
      id,
      scopeOf(principal, { includeGlobal: true }),
      (current) => {
        assertWritable(current, principal, 'sub graph');
        return { ...current.data, name: input.name ?? current.data.name, graph: input.graph };
      },
      (data) => ({ name: data.name }),
    );
    return this.toSubGraph(found(updated, 'sub graph', id));
  }

  async delete(principal: Principal, id: string): Promise<void> {
    const current = found(await this.documents.find(id, scopeOf(principal, { includeGlobal: true })), 'sub graph', id);
    assertWritable(current, principal, 'sub graph');
    if (!(await this.documents.delete(id, scopeOf(principal)))) throw new NotFoundError(`sub graph '${id}' not found`);
  }
}
