/** agent-hooks/serve: `agent-hooks serve` as a library (docs/serve.md): the trust review panel and session API, mountable or listening on loopback. */
import './zod-schemas.js'; // the schema slot, for this entry's synchronous functions (src/util/zod-slot.ts)
export * from '../serve/index.js';
