/**
 * Statistics kept current from the fact log (docs/decisions.md#statistics: no periodic recompute lag):
 * - accumulated fees (lovelace) of the transactions that anchored certificates, each transaction counted once
 *   however many certificates it carries;
 * - certificates per category (docs/decisions.md#statistics, certificate-metadata.ts), all five categories always present;
 * - connected goods: every batch output a transaction creates (a batch mint, or a claim recreating the batch) adds
 *   one to "Connected Goods", and its transaction's fee to the fees (once per transaction, as for certificates).
 *
 * One document per counted transaction (its fee, slot, and the category of each counted fact by the fact's number in
 * its block, the suffix of the fact's `<txId>:<n>` id) makes it idempotent and rollback-safe while keeping the
 * embedded store small (about 20 bytes per certificate instead of a document and two index entries each). Totals
 * are kept incrementally and recounted from those documents, a bounded page at a time, after a rollback.
 */
import { CERTIFICATE_CATEGORIES, categoryOf, type CertificateCategory } from "../domain/certificate-metadata";
import type { FactRecord } from "../indexer/fact-log";
import type { Projection } from "../indexer/fact-consumer";
import type { Collection, Store, StoredDocument } from "../store";

/** A transaction whose facts count: `_id` is its id. */
interface TransactionDoc extends StoredDocument {
  fee: number;
  slot: number;
  /** fact number in its block → the category it counts in */
  items: Record<string, CertificateCategory>;
}
interface TotalsDoc extends StoredDocument {
  fees: number;
  [category: string]: number | string;
}

const GOODS_CATEGORY: CertificateCategory = "Connected Goods";
/** Documents read at a time when recounting after a rollback. */
const RECOUNT_PAGE = 5_000;

export class StatsProjection implements Projection {
  readonly name = "stats-transactions";
  private constructor(
    private readonly txs: Collection<TransactionDoc>,
    private readonly totals: Collection<TotalsDoc>,
  ) {}

  static async open(store: Store): Promise<StatsProjection> {
    const p = new StatsProjection(store.collection("stats_transactions"), store.collection("stats_transaction_totals"));
    await p.txs.ensureIndexes([{ fields: { slot: 1 } }]);
    return p;
  }

  async apply(facts: FactRecord[]): Promise<void> {
    const inc: Record<string, number> = {};
    // The facts of a transaction are consecutive: its document is read once, changed in memory, written once.
    let tx: TransactionDoc | undefined;
    let stored = false;
    let changed = false;
    const save = async (): Promise<void> => {
      if (tx === undefined || !changed) return;
      if (stored) await this.txs.updateOne({ _id: tx._id }, { $set: { items: tx.items } });
      else await this.txs.insertOne(tx);
    };
    for (const r of facts) {
      if (r.kind !== "fact") continue;
      const category =
        r.fact.type === "certificate.issued" ? categoryOf(r.fact.metadata) : r.fact.type === "goods.batch" ? GOODS_CATEGORY : undefined;
      if (category === undefined) continue;
      if (tx?._id !== r.txId) {
        await save();
        const found = await this.txs.findOne({ _id: r.txId });
        stored = found !== undefined;
        changed = false;
        tx = found ?? { _id: r.txId, fee: Number(r.txFee), slot: r.slot, items: {} };
        if (!stored) inc.fees = (inc.fees ?? 0) + tx.fee;
      }
      const item = r._id.slice(r._id.lastIndexOf(":") + 1);
      if (tx.items[item] !== undefined) continue;
      tx.items[item] = category;
      changed = true;
      inc[category] = (inc[category] ?? 0) + 1;
    }
    await save();
    if (Object.keys(inc).length > 0) await this.totals.updateOne({ _id: "totals" }, { $inc: inc }, { upsert: true });
  }

  async rollback(slot: number): Promise<void> {
    await this.txs.deleteMany({ slot: { $gt: slot } });
    const counts: Record<string, number> = Object.fromEntries(CERTIFICATE_CATEGORIES.map((c) => [c, 0]));
    let fees = 0;
    let after: string | undefined;
    for (;;) {
      const page = await this.txs.find(after === undefined ? {} : { _id: { $gt: after } }, { sort: { _id: 1 }, limit: RECOUNT_PAGE });
      for (const d of page) {
        fees += d.fee;
        for (const c of Object.values(d.items)) counts[c] = (counts[c] ?? 0) + 1;
      }
      if (page.length < RECOUNT_PAGE) break;
      after = page[page.length - 1]!._id;
    }
    await this.totals.updateOne({ _id: "totals" }, { $set: { ...counts, fees } }, { upsert: true });
  }

  async txFees(): Promise<number> {
    return Number((await this.totals.findOne({ _id: "totals" }))?.fees ?? 0);
  }

  async byCategory(): Promise<Record<CertificateCategory, number>> {
    const t = await this.totals.findOne({ _id: "totals" });
    return Object.fromEntries(CERTIFICATE_CATEGORIES.map((c) => [c, Number(t?.[c] ?? 0)])) as Record<CertificateCategory, number>;
  }
}
