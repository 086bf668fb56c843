/** agent-hooks/host: the reference host runtime (docs/host.md): sessions, tool pipeline, permission engine, tools, agent loop, demo. */
export * from '../host/index.js';
