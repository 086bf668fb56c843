/**
 * `agent-hooks install --agent copilot`: a file of its own, `.github/hooks/agent-hooks.json` of the
 * project or `~/.copilot/hooks/agent-hooks.json` (Copilot reads every `*.json` there).
 */
import { join } from 'node:path';
import { deliveredEvents } from '../shared/install.js';
import type { InstallSpec } from '../types.js';
import { copilot } from './facts.js';

export const copilotInstall: InstallSpec = {
  title: 'Copilot CLI',
  format: 'json',
  target: (scope, { projectDir, homeDir }) =>
    scope === 'user' ? join(homeDir, '.copilot', 'hooks', 'agent-hooks.json') : join(projectDir, '.github', 'hooks', 'agent-hooks.json'),
  // The camelCase events (Copilot's own); their PascalCase copies would fire the same hooks twice.
  events: deliveredEvents(copilot, (m) => /^[A-Z]/.test(m.native)),
  entry: (command) => ({ type: 'command', bash: command }),
  base: { version: 1 },
  namesEvent: true,
  blocksBy: 'exit2',
};
