/**
 * The builds of a list extension's service (fractionized, tokenizable), kept for a while so a build that lost its list entry to another
 * transaction can be built again (docs/decisions.md#racing-extension-inserts): per built transaction id, the
 * request body, the list entry it spends, and — once rebuilt — the replacement unsigned transaction. Shared by
 * every replica through the store; bounded by size per entry and by age.
 */
import { TxHash } from "../../domain/hex";
import type { OutRef } from "../../domain/out-ref";
import { outRefKey } from "../../domain/out-ref";
import type { Collection, Store, StoredDocument } from "../../store";

type BuildDoc = StoredDocument & {
  /** the request body as JSON text */
  body: string;
  /** the list entry the transaction spends (`txHash#index`), "" for an Init */
  spends: string;
  policyId: string;
  builtAt: number;
  expiresAt: number;
  /** the replacement unsigned transaction, "" until rebuilt */
  rebuilt: string;
};

/** How long a build can be rebuilt: well past the validity window of its transaction. */
const BUILD_LOG_TTL_MS = 15 * 60_000;
/** Bodies larger than this are not kept (their builds cannot be rebuilt; real bodies are a few hundred bytes). */
const MAX_LOGGED_BODY_BYTES = 16 * 1024;

interface LoggedBuild {
  readonly txId: TxHash;
  readonly body: Record<string, unknown>;
  readonly spends: OutRef | null;
  readonly policyId: string;
  readonly rebuilt: string | null;
}

export class ListBuildLog {
  private constructor(
    private readonly builds: Collection<BuildDoc>,
    private readonly clock: () => number,
  ) {}

  /** The log of the extension `name` (collection `<name>_builds`). */
  static async open(store: Store, name: string, clock: () => number): Promise<ListBuildLog> {
    const builds = store.collection<BuildDoc>(`${name}_builds`);
    await builds.ensureIndexes([{ fields: { expiresAt: 1 } }, { fields: { rebuilt: 1, expiresAt: 1 } }]);
    return new ListBuildLog(builds, clock);
  }

  async record(txId: string, body: Record<string, unknown>, spends: OutRef | null, policyId: string): Promise<void> {
    const text = JSON.stringify(body);
    if (Buffer.byteLength(text) > MAX_LOGGED_BODY_BYTES) return;
    const now = this.clock();
    await this.builds.deleteMany({ expiresAt: { $lte: now } });
    await this.builds.updateOne(
      { _id: txId },
      {
        $set: {
          body: text,
          spends: spends ? outRefKey(spends) : "",
          policyId,
          builtAt: now,
          expiresAt: now + BUILD_LOG_TTL_MS,
          rebuilt: "",
        },
      },
      { upsert: true },
    );
  }

  async find(txId: TxHash): Promise<LoggedBuild | undefined> {
    const d = await this.builds.findOne({ _id: txId, expiresAt: { $gt: this.clock() } });
    return d ? loggedOf(d) : undefined;
  }

  async setRebuilt(txId: string, unsignedTransaction: string): Promise<void> {
    await this.builds.updateOne({ _id: txId }, { $set: { rebuilt: unsignedTransaction } });
  }

  async forget(txId: string): Promise<void> {
    await this.builds.deleteOne({ _id: txId });
  }

  /** Builds not rebuilt yet that spend a list entry (the candidates a block may have beaten), oldest first. */
  async candidates(limit: number): Promise<LoggedBuild[]> {
    const docs = await this.builds.find({ rebuilt: "", expiresAt: { $gt: this.clock() } }, { sort: { builtAt: 1 }, limit });
    return docs.filter((d) => d.spends !== "").map(loggedOf);
  }
}

function loggedOf(d: BuildDoc): LoggedBuild {
  const [txHash, index] = d.spends.split("#");
  return {
    txId: TxHash(d._id),
    body: JSON.parse(d.body) as Record<string, unknown>,
    spends: d.spends === "" ? null : { txHash: txHash!, index: Number(index) },
    policyId: d.policyId,
    rebuilt: d.rebuilt === "" ? null : d.rebuilt,
  };
}
