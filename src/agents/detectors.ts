/**
 * Every agent's detector in one module. Each agent's facts read its detector from here, not from
 * its own `detect.ts`, so that a bundle keeps all the detectors in one chunk: dispatch loads every
 * detector at every event, and a chunk per agent was a file to open and compile for each.
 */
export { detectAuggie } from './auggie/detect.js';
export { detectClaude } from './claude/detect.js';
export { detectCline } from './cline/detect.js';
export { detectCodex } from './codex/detect.js';
export { detectCopilot } from './copilot/detect.js';
export { detectCursor } from './cursor/detect.js';
export { detectDroid } from './droid/detect.js';
export { detectGemini } from './gemini/detect.js';
export { detectKimi, isKimiPluginManifest } from './kimi/detect.js';
export { detectLetta } from './letta/detect.js';
export { detectQwen } from './qwen/detect.js';
/** OpenCode, Kilo and Pi have no hooks file: no document is ever theirs. */
export const detectPluginAgent = (): number => 0;
