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
];
