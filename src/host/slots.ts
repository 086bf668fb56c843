/**
 * Ordered extension points: a slot is a list of named listeners
 * ordered by `before`/`after` constraints, fired one after another with one event object.
 *
 * - `veto(reason)`: any listener may stop the guarded action; listeners after it do not run,
 *   and neither does deferred work.
 * - `waitUntil(task)`: work deferred until every listener has answered (and none vetoed).
 *   Approval prompts are deferred this way, so a later listener (the hooks engine's
 *   PreToolUse) always decides before any prompt is shown. A deferred task may veto too.
 *
 * The permission gate, the plan-mode guard and the hooks engine are all listeners of the
 * runtime's slots; none of them is special-cased by the runtime.
 */

export interface Veto {
  reason: string;
  /** The listener that vetoed. */
  by: string;
  /** Extra data the vetoing listener attaches (e.g. `{ kind: 'rule' }`). */
  detail?: Record<string, unknown>;
}

/** The control surface every slot event carries. */
export interface SlotControl {
  veto(reason: string, detail?: Record<string, unknown>): void;
  readonly vetoed: Veto | undefined;
  waitUntil(task: () => Promise<void> | void): void;
}

export type SlotEvent<E extends object> = E & SlotControl;

export interface SlotListener<E extends object> {
  /** Unique within the slot; what other listeners' before/after name. */
  name: string;
  /** Run before these listeners (when present). */
  before?: readonly string[];
  /** Run after these listeners (when present). */
  after?: readonly string[];
  fn(event: SlotEvent<E>): void | Promise<void>;
}

export interface SlotOutcome {
  vetoed?: Veto;
  /** Listener names in the order they ran (deferred tasks not included). */
  ran: string[];
}

export interface Slot<E extends object> {
  readonly name: string;
  /** Add a listener; returns its remove function. A duplicate name or a before/after cycle throws. */
  add(listener: SlotListener<E>): () => void;
  /** Listener names in firing order. */
  order(): string[];
  fire(event: E): Promise<SlotOutcome & { event: SlotEvent<E> }>;
}

export class SlotOrderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SlotOrderError';
  }
}

export function createSlot<E extends object>(name: string): Slot<E> {
  const listeners: SlotListener<E>[] = [];
  let sorted: SlotListener<E>[] | undefined;

  const sortedListeners = (): SlotListener<E>[] => (sorted ??= topoSort(name, listeners));

  return {
    name,
    add(listener) {
      if (listeners.some((l) => l.name === listener.name))
        throw new SlotOrderError(`slot ${name}: a listener named "${listener.name}" is already added`);
      listeners.push(listener);
      sorted = undefined;
      try {
        sortedListeners();
      } catch (e) {
        listeners.pop();
        sorted = undefined;
        throw e;
      }
      return () => {
        const i = listeners.indexOf(listener);
        if (i >= 0) {
          listeners.splice(i, 1);
          sorted = undefined;
        }
      };
    },
    order: () => sortedListeners().map((l) => l.name),
    async fire(base) {
      const deferred: Array<() => Promise<void> | void> = [];
      let vetoed: Veto | undefined;
      let current = '';
      const control: SlotControl = {
        veto(reason, detail) {
          // The first veto stands; later ones (from deferred work racing) do not replace it.
          vetoed ??= { reason, by: current, ...(detail ? { detail } : {}) };
        },
        get vetoed() {
          return vetoed;
        },
        waitUntil(task) {
          deferred.push(task);
        },
      };
      // The event keeps its own prototype-less data plus the control methods.
      const event = Object.assign(base, control) as SlotEvent<E>;
      Object.defineProperty(event, 'vetoed', { get: () => vetoed, enumerable: false, configurable: true });
      const ran: string[] = [];
      for (const l of sortedListeners()) {
        current = l.name;
        ran.push(l.name);
        await l.fn(event);
        if (vetoed) return { vetoed, ran, event };
      }
      for (const task of deferred) {
        current = `${current}:deferred`;
        await task();
        if (vetoed) return { vetoed, ran, event };
      }
      return { ran, event };
    },
  };
}

/** Stable topological order: insertion order unless a before/after constraint says otherwise. */
function topoSort<E extends object>(slot: string, listeners: readonly SlotListener<E>[]): SlotListener<E>[] {
  const byName = new Map(listeners.map((l) => [l.name, l]));
  // edges: a → b means a runs before b.
  const after = new Map<string, Set<string>>(listeners.map((l) => [l.name, new Set<string>()]));
  for (const l of listeners) {
    for (const b of l.before ?? []) if (byName.has(b)) after.get(b)!.add(l.name);
    for (const a of l.after ?? []) if (byName.has(a)) after.get(l.name)!.add(a);
  }
  const out: SlotListener<E>[] = [];
  const done = new Set<string>();
  while (out.length < listeners.length) {
    const next = listeners.find((l) => !done.has(l.name) && [...after.get(l.name)!].every((d) => done.has(d)));
    if (!next) {
      const left = listeners.filter((l) => !done.has(l.name)).map((l) => l.name);
      throw new SlotOrderError(`slot ${slot}: before/after constraints form a cycle among ${left.join(', ')}`);
    }
    done.add(next.name);
    out.push(next);
  }
  return out;
}
