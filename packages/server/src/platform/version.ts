/** The server's version, reported by /health and in the user agent of outgoing requests. */
export const VERSION = '0.1.0';
