/** Where `agent-hooks install` puts kilo's plugin module (src/agents/shared/plugin-install.ts). */
export { kiloInstall } from '../shared/plugin-install.js';
