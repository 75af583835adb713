/**
 * Freeing CSL objects. Every CSL object (and every object a CSL getter returns: getters hand out copies) lives in
 * the wasm heap until its `free()`; wasm-bindgen's finalizers free it only when the garbage collector gets round to
 * it and the event loop runs its callbacks, so a synchronous hot path (the indexer and the lookups on every block)
 * that leaves its objects to them grows the heap by the size of everything it touched. The helpers on those paths
 * therefore run inside `withFreed` and register each CSL object they create or receive from a getter.
 */

/** A CSL (wasm-bindgen) object. */
export interface Freeable {
  free(): void;
}

/** Registers a CSL object (or an absent optional one) for freeing at the end of the scope, and returns it. */
export type Own = <O extends Freeable | undefined>(object: O) => O;

/**
 * Runs `fn` and frees every object registered through its `own` when it returns or throws. A result must be a
 * plain value (string, bytes, number, JS object) or an unregistered CSL object the caller then owns. An object a
 * by-value CSL call consumed is already gone and is skipped.
 */
export function withFreed<T>(fn: (own: Own) => T): T {
  const owned: Freeable[] = [];
  const own: Own = (object) => {
    if (object) owned.push(object);
    return object;
  };
  try {
    return fn(own);
  } finally {
    for (let i = owned.length - 1; i >= 0; i--) freeOnce(owned[i] as Freeable);
  }
}

function freeOnce(object: Freeable): void {
  try {
    object.free();
  } catch {
    // consumed by a by-value call (wasm-bindgen throws "null pointer passed to rust"): nothing left to free
  }
}
