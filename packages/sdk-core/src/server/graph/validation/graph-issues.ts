import { BadRequestError } from '../../../errors/api-error.js';

/** One thing wrong with a graph, located at a node and pad when it has one. */
export interface GraphIssue {
  node?: string | undefined;
  pad?: string | undefined;
  message: string;
}

export function describeIssue(issue: GraphIssue, nodeTypes: ReadonlyMap<string, string> = new Map()): string {
  const where = issue.node
    ? `node '${issue.node}'${nodeTypes.has(issue.node) ? ` (${nodeTypes.get(issue.node)})` : ''}${issue.pad ? ` pad '${issue.pad}'` : ''}: `
    : '';
  return `${where}${issue.message}`;
}

/**
 * 400 `invalid_input` for a graph with issues: the message names the first few, each with its node and pad.
 *
 * @example
 * throw graphInvalid('graph', issues, types); // "graph: node 'llm' (OpenAICompatibleLLM) pad 'context': ..."
 */
export function graphInvalid(field: string, issues: readonly GraphIssue[], nodeTypes: ReadonlyMap<string, string> = new Map()): BadRequestError {
  const shown = issues.slice(0, 5).map((issue) => describeIssue(issue, nodeTypes));
  const more = issues.length > shown.length ? ` (and ${issues.length - shown.length} more)` : '';
  return new BadRequestError(`${field}: ${shown.join('; ')}${more}`);
}
