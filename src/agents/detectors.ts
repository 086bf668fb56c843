/**
 * Every agent's detector in one module. Each agent's facts read its detector from here, not from
 * its own `detect.ts`, so that a bundle keeps all the detectors in one chunk: dispatch loads every
 * detector at every event, and a chunk per agent was a file to open and compile for each.
 */
import { detectAuggie } from './auggie/detect.js';
import { detectClaude } from './claude/detect.js';
import { detectCline } from './cline/detect.js';
import { detectCodex } from './codex/detect.js';
import { detectCopilot } from './copilot/detect.js';
import { detectCursor } from './cursor/detect.js';
import { detectDroid } from './droid/detect.js';
import { detectGemini } from './gemini/detect.js';
import { detectKimi } from './kimi/detect.js';
import { detectLetta } from './letta/detect.js';
import { detectQwen } from './qwen/detect.js';
import { surestDialect } from './shared/detect.js';
import type { DialectName, Detector } from './types.js';

export { isKimiPluginManifest } from './kimi/detect.js';
export {
  detectAuggie,
  detectClaude,
  detectCline,
  detectCodex,
  detectCopilot,
  detectCursor,
  detectDroid,
  detectGemini,
  detectKimi,
  detectLetta,
  detectQwen,
};
/** OpenCode, Kilo and Pi have no hooks file: no document is ever theirs. */
export const detectPluginAgent = (): number => 0;

/**
 * Each agent's detector by name (the registry's adapters and the facts carry the same ones):
 * detection without the registry, so `run` with a Claude file loads no agent's adapter
 * (docs/performance.md, item 23).
 */
const DETECTORS: Readonly<Record<DialectName, Detector>> = {
  claude: detectClaude,
  codex: detectCodex,
  gemini: detectGemini,
  qwen: detectQwen,
  kimi: detectKimi,
  cursor: detectCursor,
  copilot: detectCopilot,
  droid: detectDroid,
  opencode: detectPluginAgent,
  kilo: detectPluginAgent,
  pi: detectPluginAgent,
  letta: detectLetta,
  cline: detectCline,
  auggie: detectAuggie,
};

/** The most likely dialect of a parsed document; Claude (the native shape) when nothing is sure. */
export function detectDialectName(file: string, doc: unknown): { name: DialectName; confidence: number } {
  return surestDialect((name) => DETECTORS[name], file, doc);
}

/** A name's detector, for the test that the adapters carry the same. */
export const detectorOf = (name: DialectName): Detector => DETECTORS[name];
