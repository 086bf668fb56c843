/** Every agent `agent-hooks install` knows: each agent's own `install.ts`, through its adapter. */
import { AGENTS } from '../../agents/registry.js';
import { DIALECT_NAMES, type InstallSpec, isDialectName } from '../../agents/types.js';

export const INSTALL_AGENTS: readonly string[] = DIALECT_NAMES;

export async function installSpecOf(agent: string): Promise<InstallSpec | undefined> {
  return isDialectName(agent) ? AGENTS[agent].install() : undefined;
}
