/** Where `agent-hooks install` puts opencode's plugin module (src/agents/shared/plugin-install.ts). */
export { opencodeInstall } from '../shared/plugin-install.js';
