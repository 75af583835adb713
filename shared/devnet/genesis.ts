// Genesis funds: one pseudo-transaction output per funded address (Shelley-style: the id is a digest of the address).
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";
import { devnetSetupError } from "./errors";
import { cborMap, devnetDigest } from "./ledger-digest";
import { inputCbor, utxoEntry, type UtxoEntry } from "./utxo-set";

export interface GenesisFund {
  address: string;
  lovelace: bigint;
}

/**
 * The genesis UTxO entries; amounts for a repeated address are summed into one output.
 * @throws DevnetError GENESIS_INVALID for an address that is not a testnet (network id 0) address or a non-positive amount.
 */
export function genesisUtxos(funds: readonly GenesisFund[]): UtxoEntry[] {
  const totals = new Map<string, bigint>();
  for (const fund of funds) {
    let address: CSL.Address;
    try {
      address = CSL.Address.from_bech32(fund.address);
    } catch {
      throw devnetSetupError("GENESIS_INVALID", `genesis address is not bech32: ${fund.address}`, { address: fund.address });
    }
    if (address.network_id() !== 0)
      throw devnetSetupError("GENESIS_INVALID", "genesis addresses must be testnet (addr_test…) addresses", { address: fund.address });
    if (fund.lovelace <= 0n) throw devnetSetupError("GENESIS_INVALID", "genesis amounts must be positive", { address: fund.address });
    totals.set(fund.address, (totals.get(fund.address) ?? 0n) + fund.lovelace);
  }
  return [...totals].map(([bech32, lovelace]) => {
    const address = CSL.Address.from_bech32(bech32);
    const output = CSL.TransactionOutput.new(address, CSL.Value.new(CSL.BigNum.from_str(lovelace.toString())));
    return utxoEntry(devnetDigest(address.to_bytes()), 0, output.to_bytes());
  });
}

/** The CBOR `{ input: output }` map the rule engine starts from. */
export function utxoMapCbor(entries: readonly UtxoEntry[]): Uint8Array {
  return cborMap(entries.map((e) => ({ key: inputCbor(e), value: e.outputCbor })));
}
