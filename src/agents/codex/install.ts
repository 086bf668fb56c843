/** `agent-hooks install --agent codex`: `.codex/hooks.json` of the project, or `$CODEX_HOME/hooks.json` (~/.codex). */
import { join, resolve } from 'node:path';
import { commandGroup, deliveredEvents } from '../shared/install.js';
import type { InstallSpec } from '../types.js';
import { codex } from './facts.js';

export const codexInstall: InstallSpec = {
  title: 'Codex',
  format: 'json',
  target: (scope, { projectDir, homeDir, env }) =>
    scope === 'user'
      ? join(env.CODEX_HOME ? resolve(env.CODEX_HOME) : join(homeDir, '.codex'), 'hooks.json')
      : join(projectDir, '.codex', 'hooks.json'),
  // Events only its docs list (SessionEnd, Interrupt) are left out: a Codex that does not know one may reject the file.
  events: deliveredEvents(codex, (m) => m.note?.includes('not in the hook_config.rs') === true),
  entry: commandGroup,
  blocksBy: 'exit2',
  projectNote:
    'Codex reads a project\'s .codex/ only once the project is trusted: answer its trust prompt, run `codex exec --trust`, or add [projects."<dir>"] trust_level = "trusted" to ~/.codex/config.toml',
};
