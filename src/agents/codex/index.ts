/** Codex: detection at hand, its facts, reader and wire codec loaded on first use. */
import type { Agent } from '../types.js';
import { detectCodex } from './detect.js';

export const codex: Agent = {
  name: 'codex',
  detect: detectCodex,
  facts: async () => (await import('./facts.js')).codex,
  reader: async () => {
    const m = await import('./reader.js');
    return { name: 'codex', parse: m.parseCodex, serialize: m.serializeCodex };
  },
  wire: async () => (await import('./wire.js')).codexWire,
  install: async () => (await import('./install.js')).codexInstall,
};
