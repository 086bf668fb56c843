/** Cursor: detection at hand, its facts, reader and wire codec loaded on first use. */
import type { Agent } from '../types.js';
import { detectCursor } from './detect.js';

export const cursor: Agent = {
  name: 'cursor',
  detect: detectCursor,
  facts: async () => (await import('./facts.js')).cursor,
  reader: async () => {
    const m = await import('./reader.js');
    return { name: 'cursor', parse: m.parseCursor, serialize: m.serializeCursor };
  },
  wire: async () => (await import('./wire.js')).cursorWire,
  install: async () => (await import('./install.js')).cursorInstall,
};
