/**
 * The adapter entries as a user gets them (the built dist/): importing one loads its own
 * framework and no other framework's code (traced with a module resolve hook in a child node),
 * and importing it where its framework is not installed says what to install.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { tempDir } from '../helpers/tmp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Adapter entry → the packages (as node_modules paths name them) that are its framework, and the
 * one it imports at run time (undefined: it only wraps an object the app passes, types only).
 */
const ADAPTERS: Record<string, { framework: string[]; install?: string }> = {
  'ai-sdk': { framework: ['ai', '@ai-sdk'], install: 'ai' },
  'mcp-client': { framework: ['@modelcontextprotocol'] },
  mastra: { framework: ['@mastra'] },
};
/** Every framework package an adapter may load: one adapter must load none of the others'. */
const FRAMEWORK_PACKAGES = [
  ...new Set([...Object.values(ADAPTERS).flatMap((a) => a.framework), 'langchain', '@langchain', '@openai', '@anthropic-ai']),
];

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** The node_modules packages (scope/name) the child resolved while importing `entry`. */
function packagesLoaded(entry: string): Set<string> {
  const hooks = join(tmp.root, 'trace-hooks.mjs');
  const log = join(tmp.root, `trace-${entry}.log`);
  writeFileSync(
    hooks,
    "import { appendFileSync } from 'node:fs';\n" +
      'export async function resolve(specifier, context, next) {\n' +
      '  const r = await next(specifier, context);\n' +
      '  appendFileSync(process.env.TRACE_FILE, `${r.url}\\n`);\n' +
      '  return r;\n' +
      '}\n',
  );
  writeFileSync(log, '');
  const register = `data:text/javascript,import{register}from'node:module';register(${JSON.stringify(pathToFileURL(hooks).href)});`;
  execFileSync(process.execPath, ['--import', register, '--input-type=module', '-e', `await import('agent-hooks/${entry}');`], {
    cwd: ROOT,
    env: { ...process.env, TRACE_FILE: log },
  });
  const loaded = new Set<string>();
  for (const url of readFileSync(log, 'utf8').split('\n')) {
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (m) loaded.add(m[1]!);
  }
  return loaded;
}

const belongsTo = (pkg: string, framework: string) => pkg === framework || pkg.startsWith(`${framework}/`);

function bareProject(entry: string): string {
  const project = join(tmp.root, `bare-${entry}`);
  const pkgDir = join(project, 'node_modules', 'agent-hooks');
  mkdirSync(pkgDir, { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(pkgDir, 'package.json'));
  cpSync(join(ROOT, 'dist'), join(pkgDir, 'dist'), { recursive: true });
  // What a production install brings: the package's dependencies, none of its optional peers.
  const deps = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: object }).dependencies);
  for (const dep of deps) {
    mkdirSync(dirname(join(project, 'node_modules', dep)), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', dep), join(project, 'node_modules', dep));
  }
  writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
  return project;
}

describe.each(Object.keys(ADAPTERS))('agent-hooks/%s', (entry) => {
  const { framework, install } = ADAPTERS[entry]!;
  test('loads no other framework (and its own only if it imports it)', () => {
    const loaded = [...packagesLoaded(entry)];
    const own = loaded.some((p) => framework.some((f) => belongsTo(p, f)));
    expect(own, `loaded: ${loaded.join(', ')}`).toBe(install !== undefined);
    const others = FRAMEWORK_PACKAGES.filter((f) => !framework.includes(f));
    expect(loaded.filter((p) => others.some((f) => belongsTo(p, f)))).toEqual([]);
  });

  test(install ? 'without its framework installed, says what to install' : 'imports without its framework installed', () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `await import('agent-hooks/${entry}');`], {
      cwd: bareProject(entry),
      encoding: 'utf8',
    });
    if (!install) {
      expect(r.status, r.stderr).toBe(0);
      return;
    }
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`agent-hooks/${entry} needs ${install}: npm install ${install}`);
  });
});
