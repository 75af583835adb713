/**
 * Compiling one validator: plu-ts `compile` gives raw flat (UPLC 1.1.0); the ledger / CIP-57 `compiledCode`
 * is that flat wrapped once as a CBOR byte string (docs/architecture.md#csl, trap 1).
 * Call this once per process: plu-ts output depends on what was compiled before in the same process
 * (docs/protocol.md#plu-ts-pitfalls, 3); scripts/build-onchain.ts runs one child process per validator.
 */
import { compile } from "@harmoniclabs/plu-ts";
import { makeProxyValidator } from "./proxy";
import { makeStateValidator } from "./state";
import { makeLibraryValidator } from "./library";
import { makeFractionizedValidator } from "./extensions/fractionized";
import { makeTokenizableValidator } from "./extensions/tokenizable";
import { makeTokenizableMetadataValidator } from "./extensions/tokenizable-metadata";
import { makeConnectedGoodsValidator } from "./extensions/connected-goods";
import { makeSocialHubValidator } from "./extensions/social-hub";
import type { BuildOptions } from "./rules";
import type { AnyTerm } from "./lib/term";
import type { ValidatorName } from "./validator-names";
import { compileWithEagerHoists } from "./lib/compile-eager-hoists";

/**
 * Each validator's term, and how it is compiled: `eager` without delayed hoists (lib/compile-eager-hoists.ts,
 * docs/protocol.md#plu-ts-pitfalls, 7); `default` keeps plu-ts' own `compile`, so its hash does not change.
 */
const VALIDATORS: Record<ValidatorName, { make: (opts: BuildOptions) => AnyTerm; hoists: "default" | "eager" }> = {
  proxy: { make: makeProxyValidator, hoists: "default" },
  state: { make: makeStateValidator, hoists: "default" },
  library: { make: makeLibraryValidator, hoists: "default" },
  fractionized: { make: makeFractionizedValidator, hoists: "eager" },
  tokenizable: { make: makeTokenizableValidator, hoists: "eager" },
  tokenizable_metadata: { make: makeTokenizableMetadataValidator, hoists: "eager" },
  connected_goods: { make: makeConnectedGoodsValidator, hoists: "eager" },
  social_hub: { make: makeSocialHubValidator, hoists: "eager" },
};

/** CBOR major type 2 header + bytes. */
function cborWrapBytes(b: Uint8Array): Uint8Array {
  const n = b.length;
  let head: number[];
  if (n < 24) head = [0x40 | n];
  else if (n < 0x100) head = [0x58, n];
  else if (n < 0x10000) head = [0x59, n >> 8, n & 0xff];
  else head = [0x5a, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
  const out = new Uint8Array(head.length + n);
  out.set(head, 0);
  out.set(b, head.length);
  return out;
}

export interface CompiledValidator {
  readonly name: ValidatorName;
  readonly trace: boolean;
  /** single CBOR-wrapped flat program, hex (CIP-57 compiledCode, unapplied) */
  readonly compiledCode: string;
}

export function compileValidator(name: ValidatorName, opts: BuildOptions): CompiledValidator {
  const { make, hoists } = VALIDATORS[name];
  const term = make(opts);
  const flat = hoists === "eager" ? compileWithEagerHoists(term) : compile(term);
  return { name, trace: opts.trace, compiledCode: Buffer.from(cborWrapBytes(flat)).toString("hex") };
}
