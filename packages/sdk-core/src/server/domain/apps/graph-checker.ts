import { GraphDocument } from '../../../contract/graph/graph-document.js';
import { BadRequestError } from '../../../errors/api-error.js';
import type { Principal } from '../../kernel/principal.js';
import { platformNodeLibrary } from '../../graph/library/node-library.js';
import type { NodeLibrary } from '../../graph/runtime/node-library.js';
import type { ResolvedGraph } from '../../graph/runtime/graph-runtime.js';
import { graphInvalid } from '../../graph/validation/graph-issues.js';
import { resolveSubgraphs } from '../../graph/validation/resolve-subgraphs.js';
import { validateGraph } from '../../graph/validation/validate-graph.js';

/** Where sub graphs come from: the caller's and the built-in ones. */
export interface SubgraphSource {
  /** The stored graph of a sub graph the principal may read; undefined when there is none. */
  graphOf(principal: Principal, id: string): Promise<unknown>;
}

/**
 * Checks graphs against the node catalogue when they are saved, published and run: 400 `invalid_input`
 * naming the node and pad of each problem (see `validateGraph`), sub graphs included.
 *
 * @example
 * const resolved = await checker.check(principal, 'graph', input.graph);
 */
export class GraphChecker {
  constructor(
    private readonly subgraphs: SubgraphSource,
    private readonly library: NodeLibrary = platformNodeLibrary,
  ) {}

  /** The graph parsed, with every sub graph it embeds; `self` is the sub graph being saved (for cycles). */
  async check(principal: Principal, field: string, graph: unknown, self?: string): Promise<ResolvedGraph> {
    const parsed = GraphDocument.safeParse(graph);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const at = issue?.path.length ? `.${issue.path.join('.')}` : '';
      throw new BadRequestError(`${field}${at}: ${issue?.message ?? 'is not a graph'}`);
    }
    const document = parsed.data;
    const types = new Map(document.nodes.map((node) => [node.id, node.type]));
    const { subgraphs, issues } = await resolveSubgraphs(document, (id) => this.subgraphs.graphOf(principal, id), self);
    issues.push(...validateGraph(document, subgraphs, this.library));
    for (const [id, inner] of subgraphs) {
      for (const issue of validateGraph(inner, subgraphs, this.library)) issues.push({ ...issue, message: `in sub graph '${id}': ${issue.message}` });
    }
    if (issues.length > 0) throw graphInvalid(field, issues, types);
    return { document, subgraphs };
  }
}
