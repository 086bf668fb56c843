/** The built-in tools of the reference runtime. */
import type { HostTool, ToolRegistry } from '../types.js';
import { applyPatchTool } from './apply-patch.js';
import { bashTool } from './bash.js';
import { editTool, multiEditTool, readTool, writeTool } from './files.js';
import { globTool, grepTool } from './search.js';

export { applyPatchTool } from './apply-patch.js';
export { bashTool } from './bash.js';
export { editTool, multiEditTool, readTool, writeTool } from './files.js';
export { globTool, grepTool } from './search.js';
export { confine, isInsideAny, isolationProblem } from './workspace.js';

export function builtinTools(): HostTool[] {
  return [
    bashTool(),
    readTool(),
    writeTool(),
    editTool(),
    multiEditTool(),
    applyPatchTool(),
    globTool(),
    grepTool(),
  ] as unknown as HostTool[];
}

/** A registry from tools; a duplicate name is an error. */
export function toolRegistry(tools: readonly HostTool[]): ToolRegistry {
  const reg: ToolRegistry = new Map();
  for (const t of tools) {
    if (reg.has(t.name)) throw new Error(`tool registry: duplicate tool name ${JSON.stringify(t.name)}`);
    reg.set(t.name, t);
  }
  return reg;
}
