/** The Discovery Kit client: typed helpers for the service's APIs. */
export { createTokenProvider, retryDelayMs, TokenRequestError, CLIENT_ASSERTION_TYPE } from './token-provider.js';
export type { TokenProvider, TokenProviderOptions } from './token-provider.js';
