/**
 * `@palaver/sdk-react`: React bindings for Palaver.
 *
 * @example
 * import { PalaverProvider, usePalaverClient } from '@palaver/sdk-react';
 */
export { PalaverProvider, usePalaverClient } from './palaver-provider.js';
export type { PalaverProviderProps } from './palaver-provider.js';
