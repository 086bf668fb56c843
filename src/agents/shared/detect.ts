/** Detection helpers the agents' detectors share (each agent's own is src/agents/<name>/detect.ts). */
import { isObject } from '../../util/is-object.js';
import { DIALECT_NAMES, type DialectName } from '../types.js';

/** Native event names with at least one hook entry in a Claude-shaped `hooks` object. */
export function groupEvents(hooks: unknown): string[] {
  if (!isObject(hooks)) return [];
  return Object.keys(hooks).filter((k) => Array.isArray(hooks[k]) && (hooks[k] as unknown[]).length > 0);
}

/** The dialect whose detector is surest of a parsed document; Claude (the native shape) when none is. */
export function surestDialect(
  detectorOf: (name: DialectName) => (file: string, doc: unknown) => number,
  file: string,
  doc: unknown,
): { name: DialectName; confidence: number } {
  let best: { name: DialectName; confidence: number } = { name: 'claude', confidence: 0 };
  for (const name of DIALECT_NAMES) {
    let c = 0;
    try {
      c = detectorOf(name)(file, doc);
    } catch {
      c = 0; // detection reads untrusted documents; a surprise shape is "not this dialect"
    }
    if (c > best.confidence) best = { name, confidence: c };
  }
  return best;
}
