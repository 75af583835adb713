/** What every purpose handler of the state script's withdraw logic works with. */
import type { Rule } from "../rules";
import type { AnyTerm } from "../lib/term";
import type { CertificateHelpers } from "./certificates";
import { punBData } from "@harmoniclabs/plu-ts";
import { isScriptAddress } from "../lib/addresses";

export interface StateEnv {
  readonly rule: Rule;
  /** PTxInfo */
  readonly tx: AnyTerm;
  readonly signatories: AnyTerm;
  /** parameter: the proxy script hash = policy of pointer, bootstrap and state tokens */
  readonly proxyPolicy: AnyTerm;
  /** parameter: the proxy pointer token's name */
  readonly pointerName: AnyTerm;
  /** parameter: bootstrap administrators' key hashes, list(data) */
  readonly admins: AnyTerm;
  /** redeemer certificates, list(Certificate) */
  readonly certs: AnyTerm;
  readonly certificates: CertificateHelpers;
  /** hoisted int → uint16 little-endian bytes */
  readonly uint16Le: AnyTerm;
  /** hoisted (spent output, owner, proxy policy, mint) → bool, see mint-state.ts */
  readonly isOwnBurnedState: AnyTerm;
}

export const proxyInputsOf = (env: StateEnv): AnyTerm =>
  env.tx.inputs.filter((i: AnyTerm) => isScriptAddress(i.resolved.address, env.proxyPolicy));

export const proxyOutputsOf = (env: StateEnv): AnyTerm =>
  env.tx.outputs.filter((o: AnyTerm) => isScriptAddress(o.address, env.proxyPolicy));

/** Mint entries under the proxy policy: empty, or one entry (policy, assets). */
export const proxyMintOf = (env: StateEnv): AnyTerm => env.tx.mint.filter((e: AnyTerm) => e.fst.eq(env.proxyPolicy));

export const isAdminSigned = (env: StateEnv): AnyTerm =>
  env.admins.some((a: AnyTerm) => env.signatories.some((s: AnyTerm) => s.eq(punBData.$(a))));
