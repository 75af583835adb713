/**
 * Every scrypt run of the connected-goods keys (item keys, hub keys) goes through `runScrypt`, which
 * - runs at most KDF_PARALLEL of them at once in the process: scrypt runs on libuv's thread pool (4 threads by
 *   default), which file, DNS and other crypto work share, so one burst of derivations must not hold all of it;
 * - has the caller pay each run from its budget before it starts (`KdfCaller.pay`, a KdfAllowance), and
 * - runs nothing for a caller whose request is gone (its AbortSignal), neither before waiting for a slot nor after.
 * A derivation already running finishes (libuv cannot stop it); what stops is everything after it.
 *
 * The counters are process-wide because the pool is: tests read them to prove that a request derived nothing.
 */
import { scrypt } from "node:crypto";

/** Derivations running at once in this process (the whole process, not per request). */
export const KDF_PARALLEL = 2;

interface ScryptParams {
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly keyLength: number;
}

/** What a derivation needs from the request it runs for. */
export interface KdfCaller {
  /** Aborted when the request is gone: no derivation starts after that. */
  readonly signal?: AbortSignal | undefined;
  /** Pays for one derivation; throws (KDF_BUDGET_EXCEEDED) when the caller's budget is spent. */
  pay(): void;
  /** Gives back a payment whose derivation never started. */
  refund(): void;
}

/** scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is exactly the item key's, so allow some headroom. */
const SCRYPT_MAXMEM = 64 * 1024 * 1024;

const activity = { runs: 0, running: 0 };
let busy = 0;
const waiting: Array<() => void> = [];

/** Derivations started since the process began, and running now. */
export function kdfActivity(): { readonly runs: number; readonly running: number } {
  return { runs: activity.runs, running: activity.running };
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else busy -= 1;
}

/** Waits for a free slot; rejects (without taking one) when `signal` aborts first. */
function acquire(signal: AbortSignal | undefined): Promise<void> {
  if (busy < KDF_PARALLEL) {
    busy += 1;
    return Promise.resolve();
  }
  return new Promise<void>((resolve, reject) => {
    // A slot handed over by `release` keeps `busy` as it is.
    const take = () => {
      signal?.removeEventListener("abort", leave);
      resolve();
    };
    const leave = () => {
      const at = waiting.indexOf(take);
      if (at >= 0) waiting.splice(at, 1);
      reject(signal!.reason);
    };
    waiting.push(take);
    signal?.addEventListener("abort", leave, { once: true });
  });
}

/** One scrypt run for `caller`: paid, in turn, and skipped if the caller's request is gone. */
export async function runScrypt(caller: KdfCaller | undefined, secret: Buffer, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  caller?.signal?.throwIfAborted();
  caller?.pay();
  try {
    await acquire(caller?.signal);
  } catch (err) {
    caller?.refund();
    throw err;
  }
  try {
    if (caller?.signal?.aborted) {
      caller.refund();
      caller.signal.throwIfAborted();
    }
    activity.runs += 1;
    activity.running += 1;
    try {
      const { N, r, p, keyLength } = params;
      return await new Promise<Buffer>((resolve, reject) =>
        scrypt(secret, salt, keyLength, { N, r, p, maxmem: SCRYPT_MAXMEM }, (err, key) => (err ? reject(err) : resolve(key))),
      );
    } finally {
      activity.running -= 1;
    }
  } finally {
    release();
  }
}
