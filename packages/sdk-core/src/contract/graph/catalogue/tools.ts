import { pad, t, type NodeSpec } from '../node-spec.js';

/** Tools an LLM node may call. */
export const toolNodes: NodeSpec[] = [
  {
    type: 'ToolGroup',
    description:
      "The project's tool definitions an LLM may call (`tools`: ids or names; `web_request` tools are POSTed to their URL, `client_app` tools run in the human's app over the `tool_call` topic). Link `self` to an LLM's `tool_group`.",
    category: { primary: 'core', secondary: 'tool', tags: ['tools', 'functions'] },
    pads: [
      pad.propertySource('self', [t.nodeReference(['ToolGroup'])], null),
      pad.propertySink('config', [t.object()], {}),
      pad.propertySink('tools', [t.list([t.string()])], []),
    ],
  },
  {
    type: 'MCP',
    description:
      "A client of an MCP server while the run lasts. `mcp_server` is an http(s) URL of a streamable-HTTP server (reached through the platform's outbound address policy) or the name of a server the platform's operator configured (streamable HTTP or a local stdio program). Link `self` to an LLM's `mcp_server_{i}`: the LLM may call the server's tools.",
    category: { primary: 'core', secondary: 'tools', tags: ['function', 'mcp'] },
    pads: [pad.propertySource('self', [t.nodeReference(['MCP'])], null), pad.propertySink('mcp_server', [t.string()], null, { group: 'config' })],
  },
];
