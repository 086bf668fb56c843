import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBatchQueue } from '../../src/audit/queue.js';
import { rotatingFile } from '../../src/audit/file-sink.js';
import { createAuditWriter } from '../../src/audit/sinks.js';
import { createHookEngine } from '../../src/engine/engine.js';
import { loadConfig } from '../../src/config/index.js';
import type { AuditRecord } from '../../src/audit/record.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'ah-audit-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('batch queue', () => {
  it('writes in batches and keeps order', async () => {
    const batches: number[][] = [];
    const q = createBatchQueue<number>({ batchSize: 3, flushMs: 1, write: async (b) => void batches.push([...b]) });
    for (let i = 0; i < 7; i++) q.push(i);
    await q.flush();
    expect(batches.flat()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(3);
    expect(q.stats()).toMatchObject({ written: 7, dropped: 0, queued: 0 });
  });

  it('holds records while the sink is down, drops and counts beyond capacity, then delivers the rest', async () => {
    let up = false;
    const got: number[] = [];
    const errors: string[] = [];
    const drops: number[] = [];
    const q = createBatchQueue<number>({
      capacity: 5,
      batchSize: 2,
      flushMs: 1,
      backoffMs: 5,
      maxBackoffMs: 10,
      write: async (b) => {
        if (!up) throw new Error('sink down');
        got.push(...b);
      },
      onError: (e) => errors.push(e.message),
      onDrop: (_n, total) => drops.push(total),
    });
    for (let i = 0; i < 8; i++) q.push(i); // push never waits, whatever the sink does
    expect(q.stats().queued).toBe(5);
    expect(q.stats().dropped).toBe(3);
    expect(drops).toEqual([1, 2, 3]);
    await new Promise((r) => setTimeout(r, 30));
    expect(errors).toEqual(['sink down']); // once per outage, not once per retry
    expect(q.stats().failedWrites).toBeGreaterThan(1);
    up = true;
    await q.flush();
    expect(got).toEqual([0, 1, 2, 3, 4]);
    expect(q.stats()).toMatchObject({ written: 5, dropped: 3, queued: 0 });
  });

  it('flush() on a dead sink tries once and returns (it never waits out the outage), keeping the records queued', async () => {
    let attempts = 0;
    const q = createBatchQueue<number>({
      flushMs: 1,
      backoffMs: 60_000,
      write: async () => {
        attempts++;
        throw new Error('down');
      },
    });
    q.push(1);
    await new Promise((r) => setTimeout(r, 20)); // the first write failed; the retry is a minute away
    expect(attempts).toBe(1);
    await q.flush();
    expect(attempts).toBe(2);
    expect(q.stats()).toMatchObject({ written: 0, dropped: 0, queued: 1 });
    await q.close(10);
    expect(q.stats().dropped).toBe(1);
  });

  it('close() gives up on a dead sink after its timeout and counts what was left as dropped', async () => {
    const q = createBatchQueue<number>({ flushMs: 1, backoffMs: 5, write: async () => Promise.reject(new Error('down')) });
    q.push(1);
    q.push(2);
    await q.close(50);
    expect(q.stats()).toMatchObject({ written: 0, dropped: 2, queued: 0 });
    q.push(3);
    expect(q.stats().dropped).toBe(3);
  });
  it('close() does not retry a sink that refuses the write at exit: one attempt, the rest counted', async () => {
    let attempts = 0;
    const q = createBatchQueue<number>({
      flushMs: 1,
      backoffMs: 5,
      write: async () => {
        attempts++;
        throw new Error('down');
      },
    });
    q.push(1);
    q.push(2);
    // A budget far beyond the test's timeout: close() must settle on the failed write, not the budget.
    await q.close(600_000);
    expect(attempts).toBe(1);
    expect(q.stats()).toMatchObject({ written: 0, dropped: 2, queued: 0 });
  });
});

describe('rotating JSONL file', () => {
  it('rotates by size and keeps only the newest files', async () => {
    const dir = tmp();
    let t = Date.parse('2026-01-01T00:00:00Z');
    const f = rotatingFile({ path: join(dir, 'audit.jsonl'), maxBytes: 100, maxAgeMs: 0, keep: 2, now: () => (t += 1000) });
    for (let i = 0; i < 10; i++) await f.append(`${JSON.stringify({ i, pad: 'x'.repeat(40) })}\n`);
    const rotated = await f.rotated();
    expect(rotated.length).toBe(2);
    const live = readFileSync(join(dir, 'audit.jsonl'), 'utf8').trim().split('\n');
    expect(live.length).toBeLessThanOrEqual(2);
    expect(JSON.parse(live.at(-1)!).i).toBe(9);
    for (const r of rotated) expect(readFileSync(r, 'utf8').length).toBeLessThanOrEqual(100);
  });

  it('rotates by age', async () => {
    const dir = tmp();
    let t = Date.parse('2026-01-01T00:00:00Z');
    const f = rotatingFile({ path: join(dir, 'a.jsonl'), maxBytes: 0, maxAgeMs: 60_000, now: () => t });
    await f.append('{"n":1}\n');
    t += 30_000;
    await f.append('{"n":2}\n');
    expect(await f.rotated()).toEqual([]);
    t += 31_000;
    await f.append('{"n":3}\n');
    const rotated = await f.rotated();
    expect(rotated).toHaveLength(1);
    expect(readFileSync(rotated[0]!, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
    expect(readFileSync(join(dir, 'a.jsonl'), 'utf8')).toBe('{"n":3}\n');
    expect(readdirSync(dir).sort()).toEqual(['a.jsonl', 'a.jsonl.20260101T000101000Z']);
  });
});

describe('audit sinks from settings', () => {
  it('agentHooks.auditSinks in managed settings wins over the project', async () => {
    const dir = tmp();
    const managed = join(dir, 'managed.json');
    const project = join(dir, 'project.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(managed, JSON.stringify({ agentHooks: { auditSinks: [{ type: 'file', path: '/var/log/team.jsonl' }] } }));
    writeFileSync(project, JSON.stringify({ agentHooks: { auditSinks: [] } }));
    const config = await loadConfig({ cwd: dir, projectDir: dir, discover: false, settingsFiles: [project], managedSettingsPath: managed });
    expect(config.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
    expect(config.options.auditSinks).toEqual([{ type: 'file', path: '/var/log/team.jsonl' }]);
  });

  it('an unknown sink type is a settings error', async () => {
    const dir = tmp();
    const file = join(dir, 's.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, JSON.stringify({ agentHooks: { auditSinks: [{ type: 'kafka' }] } }));
    const config = await loadConfig({ cwd: dir, projectDir: dir, discover: false, settingsFiles: [file] });
    expect(config.diagnostics.some((d) => d.level === 'error' && /auditSinks/.test(`${d.path} ${d.message}`))).toBe(true);
  });

  it('the engine writes one record per hook execution and one per decision, with project, session, client and provenance', async () => {
    const dir = tmp();
    const writer = createAuditWriter({ sinks: [{ type: 'file', path: 'audit.jsonl', flushMs: 1 }] }, { baseDir: dir });
    const engine = createHookEngine({ projectDir: dir, auditWriter: writer, telemetry: false });
    engine.register({ event: 'PreToolUse', matcher: 'Bash', name: 'guard', fn: () => ({ decision: 'block', reason: 'no' }) });
    engine.register({ event: 'PreToolUse', matcher: '*', name: 'ok', fn: () => ({}) });
    const d = await engine.run('PreToolUse', { session_id: 's1', tool_name: 'Bash', tool_input: { command: 'ls' } }, { client: 'alice' });
    expect(d.blocked).toBe(true);
    await engine.close();
    await writer.close();
    const lines = readFileSync(join(dir, 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditRecord);
    const hooks = lines.filter((l) => l.kind === 'hook');
    const decisions = lines.filter((l) => l.kind === 'decision');
    expect(decisions).toHaveLength(1);
    expect(hooks.length).toBeGreaterThanOrEqual(1);
    for (const r of lines)
      expect(r).toMatchObject({
        project: dir,
        session_id: 's1',
        client: 'alice',
        event: 'PreToolUse',
        tool_name: 'Bash',
        firing_id: decisions[0]!.firing_id,
      });
    expect(hooks[0]!.hook).toMatchObject({ type: 'function', source: { kind: 'sdk' }, matcher: 'Bash' });
    expect(hooks[0]!.id).toBe(`${decisions[0]!.firing_id}/${hooks[0]!.hook!.id}`);
    expect(decisions[0]).toMatchObject({ outcome: 'blocked', decision: 'deny' });
    expect(typeof decisions[0]!.durationMs).toBe('number');
  });
});

describe('a sink that cannot write is named in the decision, within the wait (issue 39, class 7)', () => {
  const run = (engine: ReturnType<typeof createHookEngine>) =>
    engine.run('PreToolUse', { session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } });

  it('a failing file sink: the warning names the sink and its error; the queue keeps the error until a write succeeds', async () => {
    const dir = tmp();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'not-a-dir'), '');
    const writer = createAuditWriter({ sinks: [{ type: 'file', path: 'not-a-dir/audit.jsonl', flushMs: 1 }] }, { baseDir: dir });
    const engine = createHookEngine({ projectDir: dir, auditWriter: writer, telemetry: false });
    engine.register({ event: 'PreToolUse', matcher: 'Bash', fn: () => ({}) });
    try {
      const d = await run(engine);
      expect(d.warnings.join('\n')).toMatch(/audit: .*file not-a-dir\/audit\.jsonl failed \(.*(ENOTDIR|ENOENT|EEXIST|not a directory)/i);
      expect(writer.stats()[0]!.lastError).toBeDefined();
    } finally {
      await engine.close();
      await writer.close(100);
    }
  });

  it('a healthy sink adds no warning', async () => {
    const dir = tmp();
    const writer = createAuditWriter({ sinks: [{ type: 'file', path: 'audit.jsonl', flushMs: 1 }] }, { baseDir: dir });
    const engine = createHookEngine({ projectDir: dir, auditWriter: writer, telemetry: false });
    engine.register({ event: 'PreToolUse', matcher: 'Bash', fn: () => ({}) });
    expect((await run(engine)).warnings).toEqual([]);
    // Written before the answer: the wait is for the record, not a fixed delay.
    expect(readFileSync(join(dir, 'audit.jsonl'), 'utf8')).toMatch(/"kind":"decision"/);
    await engine.close();
    await writer.close();
  });

  it('a collector that is down: the decision waits at most auditWaitMs, and close() is bounded by it too', async () => {
    const dir = tmp();
    // Port 9 (discard) on loopback: nothing listens, the exporter retries for its 10 s timeout.
    const writer = createAuditWriter({ sinks: [{ type: 'otlp', endpoint: 'http://127.0.0.1:9', protocol: 'http/json', flushMs: 1 }] });
    const engine = createHookEngine({ projectDir: dir, auditWriter: writer, auditWaitMs: 200, telemetry: false });
    engine.register({ event: 'PreToolUse', matcher: 'Bash', fn: () => ({}) });
    const t0 = performance.now();
    const d = await run(engine);
    expect(d.warnings.join('\n')).toMatch(/audit: .*within 200 ms: otlp http:\/\/127\.0\.0\.1:9/);
    await engine.close();
    expect(performance.now() - t0).toBeLessThan(2_000);
    await writer.close(100);
  });

  it('auditWaitMs 0: the decision does not wait for a dead collector and carries no audit warning', async () => {
    const writer = createAuditWriter({ sinks: [{ type: 'otlp', endpoint: 'http://127.0.0.1:9', protocol: 'http/json', flushMs: 1 }] });
    const engine = createHookEngine({ projectDir: tmp(), auditWriter: writer, auditWaitMs: 0, telemetry: false });
    engine.register({ event: 'PreToolUse', matcher: 'Bash', fn: () => ({}) });
    const t0 = performance.now();
    expect((await run(engine)).warnings).toEqual([]);
    expect(performance.now() - t0).toBeLessThan(150);
    await engine.close();
    await writer.close(100);
  });
});
