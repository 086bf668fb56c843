// Runs before every build: tsc only adds and overwrites files, so a module that was moved or
// deleted in src/ would otherwise live on in dist/ (and in the published package).
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
