import { describe, expect, it } from 'vitest';
import { namesFoldCase } from '../../src/util/name-case.js';

describe('namesFoldCase', () => {
  it('is true where the default file systems ignore case, false elsewhere', () => {
    expect(namesFoldCase('darwin')).toBe(true);
    expect(namesFoldCase('win32')).toBe(true);
    expect(namesFoldCase('linux')).toBe(false);
    expect(namesFoldCase('freebsd')).toBe(false);
    expect(namesFoldCase()).toBe(process.platform === 'darwin' || process.platform === 'win32');
  });
});
