import { useEffect, useState } from 'react';
import { useOptionalPalaverClient } from './palaver-provider.js';

/** Where a connector reaches the platform: the hook's options, else the provider client's. */
export interface ConnectorTransport {
  baseUrl?: string;
  fetch?: (input: Request) => Promise<Response>;
}

interface Connectable<Options> {
  connect(options: Options): Promise<void>;
  disconnect(): Promise<void>;
}

/**
 * The connector behind `useVoiceAgent` and `useAppRun`: the one given, or one made on first render on the
 * provider client's base URL and fetch (unless the options say otherwise) that leaves on unmount. With
 * `connectOnMount` it connects once per connector and leaves on unmount.
 */
export function useOwnedConnection<Options, Connector extends Connectable<Options>>(spec: {
  given: Connector | undefined;
  options: ConnectorTransport;
  create: (transport: ConnectorTransport) => Connector;
  connectOnMount: Options | undefined;
  /** Thrown when `given` is removed after the first render. */
  removedMessage: string;
}): Connector {
  const client = useOptionalPalaverClient();
  const [owned] = useState(() => {
    if (spec.given) return undefined;
    const baseUrl = spec.options.baseUrl ?? client?.http.options.baseUrl;
    const fetch = spec.options.fetch ?? client?.http.options.fetch;
    return spec.create({ ...(baseUrl !== undefined ? { baseUrl } : {}), ...(fetch ? { fetch } : {}) });
  });
  const connector = spec.given ?? owned;
  if (!connector) throw new Error(spec.removedMessage);

  const connectOnMount = spec.connectOnMount;
  useEffect(() => {
    if (!connectOnMount) return undefined;
    connector.connect(connectOnMount).catch(() => {});
    return () => void connector.disconnect();
    // Connect once per connector: a new options object each render must not reconnect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [connector]);
  useEffect(() => (owned ? () => void owned.disconnect() : undefined), [owned]);
  return connector;
}
