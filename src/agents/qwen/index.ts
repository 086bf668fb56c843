/** Qwen Code: detection at hand, its facts, reader and wire codec loaded on first use. */
import type { Agent } from '../types.js';
import { detectQwen } from './detect.js';

export const qwen: Agent = {
  name: 'qwen',
  detect: detectQwen,
  facts: async () => (await import('./facts.js')).qwen,
  reader: async () => {
    const m = await import('./reader.js');
    return { name: 'qwen', parse: m.parseQwen, serialize: m.serializeQwen };
  },
  wire: async () => (await import('./wire.js')).qwenWire,
  install: async () => (await import('./install.js')).qwenInstall,
};
