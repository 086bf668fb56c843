/**
 * An async value made on first use and shared by every caller, except that a rejection is
 * forgotten: the next caller tries again (a driver that failed to load, a server that was down
 * at the first attempt). `current()` is what was started, if anything, without starting it.
 */
export interface MemoUntilRejected<T> {
  get(): Promise<T>;
  current(): Promise<T> | undefined;
}

export function memoUntilRejected<T>(make: () => Promise<T>): MemoUntilRejected<T> {
  let pending: Promise<T> | undefined;
  return {
    get: () =>
      (pending ??= make().catch((err: unknown) => {
        pending = undefined;
        throw err;
      })),
    current: () => pending,
  };
}
