import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { createClient, type ClientOptions, type PalaverClient } from '@palaver/sdk-core';

const ClientContext = createContext<PalaverClient | null>(null);

export interface PalaverProviderProps {
  /** A ready client, or the options to build one (e.g. `{ baseUrl, usageToken }`). */
  client?: PalaverClient;
  options?: ClientOptions;
  children?: ReactNode;
}

/**
 * Makes a Palaver client available to the hooks below it.
 *
 * @example
 * <PalaverProvider options={{ baseUrl: 'https://api.example.com', usageToken }}>
 *   <App />
 * </PalaverProvider>
 */
export function PalaverProvider({ client, options, children }: PalaverProviderProps) {
  const value = useMemo(() => client ?? createClient(options ?? {}), [client, options]);
  return <ClientContext.Provider value={value}>{children}</ClientContext.Provider>;
}

/**
 * The client of the nearest `PalaverProvider`.
 *
 * @example
 * const client = usePalaverClient();
 * useEffect(() => { client.voices.list().then(setVoices) }, [client]);
 */
export function usePalaverClient(): PalaverClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('usePalaverClient must be used inside <PalaverProvider>');
  return client;
}

/** The client of the nearest `PalaverProvider`, or null outside one (for hooks that work either way). */
export function useOptionalPalaverClient(): PalaverClient | null {
  return useContext(ClientContext);
}
