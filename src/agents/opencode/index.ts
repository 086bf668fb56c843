/** OpenCode: no hooks file (detection is always 0); its facts, the no-config reader and its wire loaded on first use. */
import { detectPluginAgent } from '../detectors.js';
import type { Agent } from '../types.js';

export const opencode: Agent = {
  name: 'opencode',
  detect: detectPluginAgent,
  facts: async () => (await import('./facts.js')).opencode,
  reader: async () => (await import('../shared/plugin-reader.js')).pluginAgentReader('opencode', 'OpenCode'),
  install: async () => (await import('./install.js')).opencodeInstall,
  wire: async () => (await import('./wire.js')).opencodeWire,
};
