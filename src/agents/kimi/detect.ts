/** How sure we are that a parsed document is Kimi Code's hook config (src/agents/registry.ts detects over every agent). */
import { isObject } from '../../util/is-object.js';
import type { Detector } from '../types.js';

export function isKimiPluginManifest(file: string): boolean {
  return /(^|[\\/])kimi\.plugin\.json$/.test(file) || /(^|[\\/])\.kimi-plugin[\\/]plugin\.json$/.test(file);
}

export const detectKimi: Detector = (file, doc) => {
  if (!isObject(doc) || !Array.isArray(doc.hooks)) return 0;
  if (isKimiPluginManifest(file)) return 1;
  return /(^|[\\/])\.kimi(-code)?[\\/]/.test(file) ? 1 : 0.9;
};
