import { createClient } from '@palaver/sdk-core';
import type { GraphNode, GraphPad } from '@palaver/sdk-core/graph';
import type { RunTicket } from './run-ticket.js';

/** The graph the demo runs, as the platform stores it, with the ticket's overrides applied. */
export interface AppGraph {
  /** The app's name and the version a run takes (the published one, else the newest). */
  name: string;
  version: number;
  nodes: GraphNode[];
}

/** Where the graph's pieces are, found by node type: what the page reads and writes. */
export interface GraphRoles {
  /** Where typed words enter the conversation: a ChatInput's `output`, else the user CreateContextMessage's `content`. */
  textEntry: { node: string; pad: string } | undefined;
  /** The conversation: an LLMContext's `source` (a list of context messages). */
  conversation: { node: string; pad: string } | undefined;
  /** The nodes whose pads tell what the run is doing. */
  stt: string | undefined;
  llm: string | undefined;
  tts: string | undefined;
}

/** The pad's primary data type (`string`, `audio`, `trigger`, ...), or undefined when it takes any type. */
export function padDataType(pad: GraphPad): string | undefined {
  return (pad.allowed_types ?? pad.default_allowed_types ?? [])[0]?.type;
}

export function isSourcePad(pad: GraphPad): boolean {
  return pad.type === 'PropertySourcePad' || pad.type === 'StatelessSourcePad';
}

/** A property pad's stored value, in the client format (`{type, value}`), else undefined. */
export function storedValue(pad: GraphPad): unknown {
  return pad.value ?? undefined;
}

function withOverrides(nodes: GraphNode[], overrides: RunTicket['overrides']): GraphNode[] {
  if (!overrides?.length) return nodes;
  return nodes.map((node) => ({
    ...node,
    pads: node.pads.map((pad) => {
      const override = overrides.find((candidate) => candidate.node === node.id && candidate.pad === pad.id);
      return override ? { ...pad, value: override.value } : pad;
    }),
  }));
}

/**
 * The graph a run of the ticket's app takes: the published version, else the newest (as `POST /v1/app/run`
 * chooses), read with the visitor's usage token; the ticket's overrides shown as the run will hold them.
 */
export async function loadAppGraph(platformUrl: string, ticket: RunTicket): Promise<AppGraph> {
  const client = createClient({ baseUrl: platformUrl, usageToken: ticket.token, maxRetries: 1 });
  const { newest, published } = await client.apps.versions(ticket.app, { page_size: 1 });
  const app = published ?? newest;
  const nodes = ((app.graph as { nodes?: GraphNode[] }).nodes ?? []).filter((node) => node.type !== 'Comment');
  return { name: app.name, version: app.version, nodes: withOverrides(nodes, ticket.overrides) };
}

function roleOf(node: GraphNode): string | undefined {
  const value = node.pads.find((pad) => pad.id === 'role')?.value as { value?: unknown } | undefined;
  return typeof value?.value === 'string' ? value.value : undefined;
}

/** Finds the pads the page uses by node type, so another voice graph works the same way. */
export function graphRoles(nodes: readonly GraphNode[]): GraphRoles {
  const ofType = (type: string) => nodes.find((node) => node.type === type)?.id;
  const chat = ofType('ChatInput');
  const userMessage = nodes.find((node) => node.type === 'CreateContextMessage' && roleOf(node) === 'user')?.id;
  const context = ofType('LLMContext');
  return {
    textEntry: chat ? { node: chat, pad: 'output' } : userMessage ? { node: userMessage, pad: 'content' } : undefined,
    conversation: context ? { node: context, pad: 'source' } : undefined,
    stt: ofType('STT'),
    llm: ofType('OpenAICompatibleLLM'),
    tts: ofType('TTS'),
  };
}
