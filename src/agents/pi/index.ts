/** Pi: no hooks file (detection is always 0); its facts, the no-config reader and its wire loaded on first use. */
import { detectPluginAgent } from '../detectors.js';
import type { Agent } from '../types.js';

export const pi: Agent = {
  name: 'pi',
  detect: detectPluginAgent,
  facts: async () => (await import('./facts.js')).pi,
  reader: async () => (await import('../shared/plugin-reader.js')).pluginAgentReader('pi', 'Pi'),
  install: async () => (await import('./install.js')).piInstall,
  wire: async () => (await import('./wire.js')).piWire,
};
