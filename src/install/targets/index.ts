/**
 * Every agent `agent-hooks install` knows: the agents of src/agents/ through their adapters, and
 * the ones whose folders are not there yet, from this table (each moves to its folder's
 * `install.ts` when the folder lands, and leaves this table).
 */
import { AGENTS } from '../../agents/registry.js';
import { DIALECT_NAMES, type InstallSpec, isDialectName } from '../../agents/types.js';
import { auggieInstall } from './auggie.js';
import { clineInstall } from './cline.js';
import { lettaInstall } from './letta.js';

const PENDING: Readonly<Record<string, InstallSpec>> = {
  cline: clineInstall,
  auggie: auggieInstall,
  letta: lettaInstall,
};

export const INSTALL_AGENTS: readonly string[] = [...DIALECT_NAMES, ...Object.keys(PENDING).filter((n) => !isDialectName(n))];

export async function installSpecOf(agent: string): Promise<InstallSpec | undefined> {
  if (isDialectName(agent)) return AGENTS[agent].install();
  return PENDING[agent];
}
