// Ogmios ledger-state and network queries, answered from the devnet's confirmed state.
import { EPOCH_LENGTH_SLOTS, eraSummaries, SLOT_LENGTH_MS } from "./chain-time";
import type { Devnet } from "./devnet";
import type { UtxoFilter } from "./utxo-set";
import { DevnetError } from "./errors";
import type { OutputReference } from "./ogmios-types";

const invalid = (message: string) => new DevnetError(-32602, `Invalid params: ${message}`);
const notFound = (method: string) => new DevnetError(-32601, `Method not found: '${method}' is not a query this devnet answers.`);

function utxoFilter(params: Record<string, unknown>): UtxoFilter | undefined {
  const { addresses, outputReferences, ...rest } = params;
  if (Object.keys(rest).length > 0) throw invalid("queryLedgerState/utxo takes { addresses } or { outputReferences } or nothing");
  if (addresses !== undefined) {
    if (!Array.isArray(addresses) || !addresses.every((a) => typeof a === "string"))
      throw invalid("'addresses' must be an array of addresses");
    return { addresses };
  }
  if (outputReferences !== undefined) {
    const ok =
      Array.isArray(outputReferences) &&
      outputReferences.every((r) => {
        const ref = r as { transaction?: { id?: unknown }; index?: unknown };
        return typeof ref?.transaction?.id === "string" && (typeof ref.index === "number" || typeof ref.index === "bigint");
      });
    if (!ok) throw invalid("'outputReferences' must be [{ transaction: { id }, index }]");
    return {
      outputReferences: (outputReferences as OutputReference[]).map((r) => ({
        transaction: { id: r.transaction.id },
        index: Number(r.index),
      })),
    };
  }
  return undefined;
}

/**
 * Answers `queryLedgerState/utxo` as JSON text (the server sends it without serializing the answer again).
 * @throws DevnetError -32602 for bad params.
 */
export function utxoQueryText(devnet: Devnet, params: Record<string, unknown>): string {
  return devnet.queryUtxoText(utxoFilter(params));
}

/**
 * Answers `queryLedgerState/*`.
 * @throws DevnetError -32601 for queries the devnet does not implement, -32602 for bad params.
 */
export function ledgerStateQuery(devnet: Devnet, method: string, params: Record<string, unknown>): unknown {
  switch (method) {
    case "queryLedgerState/protocolParameters":
      return devnet.protocolParameters();
    case "queryLedgerState/utxo":
      return devnet.queryUtxo(utxoFilter(params));
    case "queryLedgerState/tip":
      return devnet.tip();
    case "queryLedgerState/epoch":
      return devnet.currentEpoch();
    case "queryLedgerState/eraSummaries":
      return eraSummaries();
    case "queryLedgerState/eraStart":
      return { time: { seconds: 0 }, slot: 0, epoch: 0 };
    default:
      throw notFound(method);
  }
}

/**
 * Answers `queryNetwork/*`.
 * @throws DevnetError -32601 for unknown queries, -32602 for an era without a genesis configuration here.
 */
export function networkQuery(devnet: Devnet, method: string, params: Record<string, unknown>): unknown {
  switch (method) {
    case "queryNetwork/tip":
      return devnet.tip();
    case "queryNetwork/blockHeight":
      return devnet.blockHeight();
    case "queryNetwork/startTime":
      return new Date(devnet.systemStartMs).toISOString();
    case "queryNetwork/genesisConfiguration": {
      if (params.era !== "shelley") throw invalid("this devnet describes its genesis for era 'shelley' only");
      const initialFunds: Record<string, unknown> = {};
      for (const fund of devnet.genesisFunds()) initialFunds[fund.address] = { ada: { lovelace: fund.lovelace } };
      return {
        era: "shelley",
        startTime: new Date(devnet.systemStartMs).toISOString(),
        networkMagic: 42,
        network: "testnet",
        activeSlotsCoefficient: "1/1",
        securityParameter: 2160,
        epochLength: EPOCH_LENGTH_SLOTS,
        slotsPerKesPeriod: 129_600,
        maxKesEvolutions: 62,
        slotLength: { milliseconds: SLOT_LENGTH_MS },
        updateQuorum: 1,
        maxLovelaceSupply: 45_000_000_000_000_000n,
        initialParameters: devnet.protocolParameters(),
        initialDelegates: [],
        initialFunds,
        initialStakePools: { stakePools: {}, delegators: {} },
      };
    }
    default:
      throw notFound(method);
  }
}
