/**
 * Every relative link of the README and docs/ resolves: the file exists, and an `#anchor` names a
 * heading of its target (GitHub's slugs). And CI runs the README's two opening commands exactly,
 * so the first thing a reader copies is what CI proves.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = [join(ROOT, 'README.md'), ...readdirSync(join(ROOT, 'docs')).map((f) => join(ROOT, 'docs', f))].filter((f) =>
  f.endsWith('.md'),
);

/** The text outside fenced code blocks, where a link is a link. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes; repeats get -1, -2. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every relative link target of a markdown file that does not resolve, with why. */
function brokenLinks(file: string, text = readFileSync(file, 'utf8')): string[] {
  const broken: string[] = [];
  for (const m of prose(text).matchAll(/\[(?:[^\]\n]|\][^(])*?\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const [path, anchor] = target.split('#') as [string, string | undefined];
    const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path));
    const where = `${relative(ROOT, file)}: (${target})`;
    if (!existsSync(resolved)) broken.push(`${where}: no such file`);
    else if (anchor !== undefined && resolved.endsWith('.md') && !anchors(readFileSync(resolved, 'utf8')).has(anchor))
      broken.push(`${where}: no heading #${anchor} in ${relative(ROOT, resolved)}`);
  }
  return broken;
}

describe('README and docs/ links', () => {
  it('every relative link and anchor resolves', () => {
    expect(DOCS.length).toBeGreaterThan(10);
    expect(DOCS.flatMap((f) => brokenLinks(f))).toEqual([]);
  });

  it('finds a missing file and a missing heading, and passes a good link (the check can fail)', () => {
    const readme = join(ROOT, 'README.md');
    const text =
      '[a](docs/nope.md) [b](docs/cli.md#no-such-heading) [c](docs/cli.md#commands-at-a-glance) [d](#library-api) [e](docs/presets.md#block-destructive)';
    expect(brokenLinks(readme, text)).toEqual([
      'README.md: (docs/nope.md): no such file',
      'README.md: (docs/cli.md#no-such-heading): no heading #no-such-heading in docs/cli.md',
    ]);
    expect(anchors('## Review hooks: `agent-hooks serve`\n## A\n## A')).toEqual(new Set(['review-hooks-agent-hooks-serve', 'a', 'a-1']));
  });
});

describe("the README's opening commands", () => {
  it('are the commands .ci/run runs, word for word', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const opening = /^```sh\n([\s\S]*?)^```/m.exec(readme)![1]!;
    const commands = opening
      .trim()
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim());
    expect(commands).toEqual(['npm ci && npm run demo', 'npm test']);
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8')
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim());
    for (const c of commands) expect(ci).toContain(c);
  });
});
