import { describe, expect, it } from 'vitest';
import { createSlot, SlotOrderError } from '../../src/host/index.js';

describe('ordered slots', () => {
  it('orders by before/after, otherwise by insertion', () => {
    const s = createSlot<{ log: string[] }>('t');
    s.add({ name: 'hooks', after: ['gate'], fn: () => {} });
    s.add({ name: 'audit', fn: () => {} });
    s.add({ name: 'gate', before: ['audit'], fn: () => {} });
    expect(s.order()).toEqual(['gate', 'hooks', 'audit']);
  });

  it('a veto stops the listeners after it and the deferred work', async () => {
    const s = createSlot<{ log: string[] }>('t');
    s.add({ name: 'a', fn: (e) => void e.waitUntil(() => void e.log.push('deferred-a')) });
    s.add({ name: 'b', fn: (e) => e.veto('no', { kind: 'test' }) });
    s.add({ name: 'c', fn: (e) => void e.log.push('c') });
    const r = await s.fire({ log: [] });
    expect(r.vetoed).toEqual({ reason: 'no', by: 'b', detail: { kind: 'test' } });
    expect(r.ran).toEqual(['a', 'b']);
    expect(r.event.log).toEqual([]);
  });

  it('waitUntil work runs after every listener answered, in order, and may veto', async () => {
    const s = createSlot<{ log: string[] }>('t');
    s.add({ name: 'gate', fn: (e) => e.waitUntil(async () => void e.log.push('prompt')) });
    s.add({ name: 'hooks', fn: async (e) => void e.log.push('PreToolUse') });
    s.add({ name: 'late', fn: (e) => e.waitUntil(() => e.veto('late veto')) });
    const r = await s.fire({ log: [] });
    expect(r.event.log).toEqual(['PreToolUse', 'prompt']);
    expect(r.vetoed?.reason).toBe('late veto');
  });

  it('a cycle or a duplicate name is refused and leaves the slot as it was', () => {
    const s = createSlot<object>('t');
    s.add({ name: 'a', after: ['b'], fn: () => {} });
    expect(() => s.add({ name: 'b', after: ['a'], fn: () => {} })).toThrow(SlotOrderError);
    expect(() => s.add({ name: 'a', fn: () => {} })).toThrow(/already added/);
    expect(s.order()).toEqual(['a']);
  });

  it('remove() takes a listener out', async () => {
    const s = createSlot<{ n: number }>('t');
    const off = s.add({ name: 'inc', fn: (e) => void e.n++ });
    off();
    expect((await s.fire({ n: 0 })).event.n).toBe(0);
  });
});
