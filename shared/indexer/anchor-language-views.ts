/**
 * The language views of a Merkle batch root's anchoring transaction (docs/merkle-batches.md#proof-format): with the
 * transaction's redeemers and datums, they give its `script_data_hash`, which is how an offline checker binds the
 * redeemers (and so the certificates) to the transaction id. They encode cost models, which are protocol
 * parameters and not part of the transaction, so the indexer takes them from the chain it follows when it records
 * the anchor, and keeps them only when they reproduce the hash the body carries.
 */
import { costModels, type ProtocolParameters } from "../csl/protocol-parameters";
import { languageViewCandidates } from "../csl/script-data";
import { matchingLanguageViews } from "../merkle/anchor-transaction";

/** Least time between two protocol-parameter queries after one that still reproduced no hash. */
const RETRY_MS = 10_000;

export class AnchorLanguageViews {
  private candidates: Uint8Array[] = [];
  /** When the last query still left a transaction without views (catching up past a cost-model change). */
  private unmatchedAt: number | undefined;

  constructor(
    private readonly protocolParameters: () => Promise<ProtocolParameters>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The language views (hex) that reproduce the transaction's `script_data_hash` under the chain's current cost
   * models, asking the chain again when the ones known do not (the parameters changed); undefined when none do (a
   * transaction recorded after its cost models changed, when catching up). @throws what the chain query throws
   */
  async of(transactionCbor: string): Promise<string | undefined> {
    const known = matchingLanguageViews(transactionCbor, this.candidates);
    if (known !== undefined) return known;
    if (this.unmatchedAt !== undefined && this.now() - this.unmatchedAt < RETRY_MS) return undefined;
    const models = costModels(await this.protocolParameters());
    try {
      this.candidates = languageViewCandidates(models);
    } finally {
      models.free();
    }
    const found = matchingLanguageViews(transactionCbor, this.candidates);
    this.unmatchedAt = found === undefined ? this.now() : undefined;
    return found;
  }
}
