/**
 * Plutus data layouts of the protocol as plu-ts structs. Constructors are numbered in declaration order, so the
 * order here IS the on-chain layout (docs/protocol.md#data-layouts); shared/protocol holds the off-chain twins.
 * Bools inside Data are never plu-ts `bool` (decoded inverted in 0.9.0, docs/protocol.md#plu-ts-pitfalls, 2).
 */
import { bs, data, int, list, pstruct, PExtended } from "@harmoniclabs/plu-ts";

/** Plutus Bool as Data: False = Constr 0, True = Constr 1. */
const PBoolData = pstruct({ False: {}, True: {} });

/** The ledger's interval bound with a correctly decoded `inclusive` flag. */
export const PBoundD = pstruct({ PBoundD: { bound: PExtended.type, inclusive: PBoolData.type } });

export const ProxyRedeemer = pstruct({ ADMIN: {}, USER: {} });

export const ProxyDatum = pstruct({ ProxyDatum: { scriptPointer: bs, scriptOwner: bs } });

const StatePurpose = pstruct({ BURN_BOOTSTRAP: {}, BURN_STATE: {}, UPDATE_STATE: {}, MINT_STATE: {}, MINT_BOOTSTRAP: {} });

/** `extra` stays `list(data)`: declaring list(bs) makes plu-ts convert the whole list eagerly. */
export const Certificate = pstruct({ Certificate: { hash: bs, algorithm: bs, issuer: bs, extra: list(data) } });

export const StateRedeemer = pstruct({ StateRedeemer: { purpose: StatePurpose.type, certificates: list(Certificate.type) } });

export const BootstrapDatum = pstruct({
  BootstrapDatum: {
    allowedCredentials: list(bs),
    tokenName: bs,
    fee: int,
    feeInterval: int,
    feeReceivers: list(bs),
    ttl: int,
    transactionLimit: int,
    batchSize: int,
  },
});

export const StateDatum = pstruct({
  StateDatum: {
    id: bs,
    owner: bs,
    fee: int,
    feeInterval: int,
    feeReceivers: list(bs),
    ttl: int,
    countdown: int,
    certificateDataHash: bs,
    batchSize: int,
    bootstrapDatumName: bs,
    keepAsOracle: PBoolData.type,
  },
});
