import { useEffect, useRef } from 'react';
import type { ClientToolHandler, RealtimeSession } from '@palaver/sdk-core/realtime';

/**
 * Registers handlers of `client_app` tools on a session while the component is mounted. The latest
 * handlers of each render are called (no re-registration when only the functions change).
 *
 * @example
 * useClientTools(agent.session, { get_location: async () => ({ city: 'Paris' }) });
 */
export function useClientTools(session: RealtimeSession, tools: Readonly<Record<string, ClientToolHandler>> | undefined): void {
  const latest = useRef(tools);
  useEffect(() => {
    latest.current = tools;
  });
  const names = Object.keys(tools ?? {})
    .sort()
    .join('\n');
  useEffect(() => {
    if (names === '') return undefined;
    const unregister = names.split('\n').map((name) =>
      session.onToolCall(name, (args, context) => {
        const handler = latest.current?.[name];
        if (!handler) throw new Error(`this app has no handler for the tool '${name}'`);
        return handler(args, context);
      }),
    );
    return () => {
      for (const off of unregister) off();
    };
  }, [session, names]);
}

/**
 * Handles the agent's calls of one `client_app` tool while the component is mounted.
 *
 * @example
 * const agent = useVoiceAgent();
 * useClientTool(agent.session, 'show_product', async ({ sku }) => { openProduct(String(sku)); return { shown: true }; });
 */
export function useClientTool(session: RealtimeSession, name: string, handler: ClientToolHandler): void {
  useClientTools(session, { [name]: handler });
}
