/** agent-hooks/host: the reference host runtime (docs/host.md): sessions, tool pipeline, permission engine, tools, agent loop, demo. */
import './zod-schemas.js'; // the schema slot, for this entry's synchronous functions (src/util/zod-slot.ts)
export * from '../host/index.js';
