/** Kilo CLI: no hooks file (detection is always 0); its facts, the no-config reader and its wire loaded on first use. */
import { detectPluginAgent } from '../detectors.js';
import type { Agent } from '../types.js';

export const kilo: Agent = {
  name: 'kilo',
  detect: detectPluginAgent,
  facts: async () => (await import('./facts.js')).kilo,
  reader: async () => (await import('../shared/plugin-reader.js')).pluginAgentReader('kilo', 'Kilo CLI'),
  install: async () => (await import('./install.js')).kiloInstall,
  wire: async () => (await import('./wire.js')).kiloWire,
};
