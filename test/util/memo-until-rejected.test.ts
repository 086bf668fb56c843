import { expect, test } from 'vitest';
import { memoUntilRejected } from '../../src/util/memo-until-rejected.js';

test('one attempt is shared; nothing starts before the first get', async () => {
  let made = 0;
  const m = memoUntilRejected(async () => ++made);
  expect(m.current()).toBeUndefined();
  expect(made).toBe(0);
  const [a, b] = await Promise.all([m.get(), m.get()]);
  expect([a, b, made]).toEqual([1, 1, 1]);
  expect(await m.current()).toBe(1);
});

test('a rejection reaches its callers and is forgotten: the next get tries again', async () => {
  let made = 0;
  const m = memoUntilRejected(async () => {
    made++;
    if (made === 1) throw new Error('down');
    return 'up';
  });
  await expect(m.get()).rejects.toThrow('down');
  expect(m.current()).toBeUndefined();
  expect(await m.get()).toBe('up');
  expect(await m.get()).toBe('up');
  expect(made).toBe(2);
});
