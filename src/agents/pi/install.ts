/** Where `agent-hooks install` puts pi's plugin module (src/agents/shared/plugin-install.ts). */
export { piInstall } from '../shared/plugin-install.js';
