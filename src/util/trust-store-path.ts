/** Where the trust store lives (src/trust/store.ts): first that applies, the env override, XDG, ~/.config. */
import path from 'node:path';
import { userHome } from './os-dirs.js';

const TRUST_STORE_ENV = 'AGENT_HOOKS_TRUST_STORE';

export function defaultTrustStorePath(env: NodeJS.ProcessEnv = process.env, homeDir: string = userHome()): string {
  const override = env[TRUST_STORE_ENV];
  if (override) return path.resolve(override);
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(homeDir, '.config');
  return path.join(base, 'agent-hooks', 'trust.json');
}
