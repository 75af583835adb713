/**
 * The spec's StateData and BootstrapData (docs/api.md#actions-and-results) from the indexer's live states and bootstraps,
 * with credentials shown as enterprise bech32 addresses, and the USER_INFO / bootstrap-access rules (docs/api.md#bootstrap-access):
 * a caller sees its states with countdown > 0 whose bootstrap is still live, and the bootstraps open to everyone
 * or whitelisting its credential.
 */
import { enterpriseAddressOfKeyHash } from "../csl/address";
import { HexBytes } from "../domain/hex";
import type { BootstrapInfo, StateInfo } from "../records/protocol-records";

/** Proxy-era states and bootstraps: version 2 (1 was the reference's legacy scripts). */
const PROTOCOL_VERSION = 2;

export interface StateData {
  id: string;
  fee: number;
  feeInterval: number;
  feeReceiverAddresses: string[];
  ttl: number;
  batchSize: number;
  countdown: number;
  bootstrapDatumName: string;
  version: number;
}

export interface BootstrapData {
  name: string;
  whitelistedAddresses: string[];
  fee: number;
  feeInterval: number;
  feeReceiverAddresses: string[];
  ttl: number;
  transactionLimit: number;
  batchSize: number;
  version: number;
}

export interface UserState {
  bootstrapDatums: BootstrapData[];
  states: StateData[];
}

function stateData(s: StateInfo, networkId: number): StateData {
  return {
    id: s.stateId,
    fee: Number(s.fee),
    feeInterval: Number(s.feeInterval),
    feeReceiverAddresses: s.feeReceivers.map((k) => enterpriseAddressOfKeyHash(k, networkId)),
    ttl: Number(s.ttl),
    batchSize: Number(s.batchSize),
    countdown: Number(s.countdown),
    bootstrapDatumName: s.bootstrapName,
    version: PROTOCOL_VERSION,
  };
}

function bootstrapData(b: BootstrapInfo, networkId: number): BootstrapData {
  return {
    name: b.name,
    whitelistedAddresses: b.allowedCredentials.map((k) => enterpriseAddressOfKeyHash(k, networkId)),
    fee: Number(b.fee),
    feeInterval: Number(b.feeInterval),
    feeReceiverAddresses: b.feeReceivers.map((k) => enterpriseAddressOfKeyHash(k, networkId)),
    ttl: Number(b.ttl),
    transactionLimit: Number(b.transactionLimit),
    batchSize: Number(b.batchSize),
    version: PROTOCOL_VERSION,
  };
}

/** States the owner can still use: countdown left and forked from a live bootstrap. */
function usableStates(states: readonly StateInfo[], bootstraps: readonly BootstrapInfo[]): StateInfo[] {
  const live = new Set(bootstraps.map((b) => b.name));
  return states.filter((s) => BigInt(s.countdown) > 0n && live.has(s.bootstrapName));
}

export function userState(
  credential: string,
  states: readonly StateInfo[],
  bootstraps: readonly BootstrapInfo[],
  networkId: number,
): UserState {
  const open = bootstraps.filter((b) => b.allowedCredentials.length === 0 || b.allowedCredentials.includes(credential));
  return {
    bootstrapDatums: open.map((b) => bootstrapData(b, networkId)),
    states: usableStates(
      states.filter((s) => s.owner === credential),
      bootstraps,
    ).map((s) => stateData(s, networkId)),
  };
}

/** GET /user/bootstrap-access: does the credential hold a usable state forked from that bootstrap (name or hex)? */
export function hasBootstrapAccess(
  credential: string,
  tokenName: string,
  states: readonly StateInfo[],
  bootstraps: readonly BootstrapInfo[],
): boolean {
  const tokenNameHex = HexBytes.parse(tokenName);
  const wanted = (b: string) => b === tokenName || Buffer.from(b, "utf8").toString("hex") === tokenNameHex;
  return (
    usableStates(
      states.filter((s) => s.owner === credential && wanted(s.bootstrapName)),
      bootstraps,
    ).length > 0
  );
}
