#!/usr/bin/env node
/**
 * Standalone entry of `dispatch` without the rest of the CLI:
 * `node dist/cli/dispatch.js --agent gemini --settings hooks.json`. Same flags and behaviour as
 * `agent-hooks dispatch`; the command line itself is src/cli/dispatch-main.ts.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { main } from './dispatch-main.js';

export { main };

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
