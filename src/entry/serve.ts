/** agent-hooks/serve: `agent-hooks serve` as a library (docs/serve.md): the trust review panel and session API, mountable or listening on loopback. */
export * from '../serve/index.js';
