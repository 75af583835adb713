/** A list extension's scripts, derived per init output reference (each list has its own script: the init out-ref is its parameter). */
import { outRefKey, type OutRef } from "../../domain/out-ref";
import type { Blueprint, NetworkId } from "../../protocol";

/** Scripts derived per init output reference; applying the parameter costs a few milliseconds each, so they are cached. */
export class ListScripts<S> {
  private readonly cache = new Map<string, S>();
  private static readonly MAX_CACHED = 1000;

  constructor(
    protected readonly networkId: NetworkId,
    protected readonly blueprint: Blueprint,
    private readonly derive: (blueprint: Blueprint, initRef: OutRef, networkId: NetworkId) => S,
  ) {}

  of(initRef: OutRef): S {
    const k = outRefKey(initRef);
    let s = this.cache.get(k);
    if (!s) {
      s = this.derive(this.blueprint, initRef, this.networkId);
      if (this.cache.size >= ListScripts.MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(k, s);
    }
    return s;
  }
}
