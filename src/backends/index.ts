export { runCommand } from './command.js';
export { buildHookEnv } from './env.js';
export { encodePayload } from './payload.js';
export { spawnerReady, spawnerPid } from './spawner.js';
