/**
 * Statistics kept current from the fact log (docs/decisions.md#statistics: no periodic recompute lag):
 * - accumulated fees (lovelace) of the transactions that anchored certificates, each transaction counted once
 *   however many certificates it carries;
 * - certificates per category (docs/decisions.md#statistics, certificate-metadata.ts), all five categories always present;
 * - connected goods: every batch output a transaction creates (a batch mint, or a claim recreating the batch) adds
 *   one to "Connected Goods", and its transaction's fee to the fees (once per transaction, as for certificates).
 * Per-item documents make it idempotent and rollback-safe; totals are kept incrementally and recomputed from the
 * items after a rollback.
 */
import { CERTIFICATE_CATEGORIES, categoryOf, type CertificateCategory } from "../domain/certificate-metadata";
import type { FactRecord } from "../indexer/fact-log";
import type { Projection } from "../indexer/fact-consumer";
import type { Collection, Store, StoredDocument } from "../store";

interface FeeTxDoc extends StoredDocument {
  fee: number;
  slot: number;
}
interface CertDoc extends StoredDocument {
  category: CertificateCategory;
  slot: number;
}
/** One per batch output created (mint or claim). */
interface GoodsDoc extends StoredDocument {
  slot: number;
}
interface TotalsDoc extends StoredDocument {
  fees: number;
  [category: string]: number | string;
}

const GOODS_CATEGORY: CertificateCategory = "Connected Goods";

export class StatsProjection implements Projection {
  readonly name = "stats";
  private constructor(
    private readonly feeTxs: Collection<FeeTxDoc>,
    private readonly certs: Collection<CertDoc>,
    private readonly goods: Collection<GoodsDoc>,
    private readonly totals: Collection<TotalsDoc>,
  ) {}

  static async open(store: Store): Promise<StatsProjection> {
    const p = new StatsProjection(
      store.collection("stats_fee_transactions"),
      store.collection("stats_certificates"),
      store.collection("stats_goods_batches"),
      store.collection("stats_totals"),
    );
    await p.feeTxs.ensureIndexes([{ fields: { slot: 1 } }]);
    // No index on `category`: only a rollback's recount reads it, in one pass (an index cost ~40 B per certificate).
    await p.certs.ensureIndexes([{ fields: { slot: 1 } }]);
    await p.goods.ensureIndexes([{ fields: { slot: 1 } }]);
    return p;
  }

  async apply(facts: FactRecord[]): Promise<void> {
    for (const r of facts) {
      if (r.kind !== "fact") continue;
      if (r.fact.type === "certificate.issued") {
        const category = categoryOf(r.fact.metadata);
        const cert = await this.certs.updateOne({ _id: r._id }, { $set: { category, slot: r.slot } }, { upsert: true });
        if (cert.upsertedId) await this.bump({ [category]: 1 });
      } else if (r.fact.type === "goods.batch") {
        const batch = await this.goods.updateOne({ _id: r._id }, { $set: { slot: r.slot } }, { upsert: true });
        if (batch.upsertedId) await this.bump({ [GOODS_CATEGORY]: 1 });
      } else continue;
      const tx = await this.feeTxs.updateOne({ _id: r.txId }, { $set: { fee: Number(r.txFee), slot: r.slot } }, { upsert: true });
      if (tx.upsertedId) await this.bump({ fees: Number(r.txFee) });
    }
  }

  async rollback(slot: number): Promise<void> {
    await this.certs.deleteMany({ slot: { $gt: slot } });
    await this.feeTxs.deleteMany({ slot: { $gt: slot } });
    await this.goods.deleteMany({ slot: { $gt: slot } });
    const counts: Record<string, number> = {};
    for (const c of CERTIFICATE_CATEGORIES) counts[c] = 0;
    for await (const page of pages(this.certs, { category: 1 }))
      for (const d of page) if (d.category !== undefined) counts[d.category] = (counts[d.category] ?? 0) + 1;
    counts[GOODS_CATEGORY] = (counts[GOODS_CATEGORY] ?? 0) + (await this.goods.count({}));
    let fees = 0;
    for await (const page of pages(this.feeTxs, { fee: 1 })) for (const d of page) fees += d.fee ?? 0;
    await this.totals.updateOne({ _id: "totals" }, { $set: { ...counts, fees } }, { upsert: true });
  }

  async txFees(): Promise<number> {
    return Number((await this.totals.findOne({ _id: "totals" }))?.fees ?? 0);
  }

  async byCategory(): Promise<Record<CertificateCategory, number>> {
    const t = await this.totals.findOne({ _id: "totals" });
    return Object.fromEntries(CERTIFICATE_CATEGORIES.map((c) => [c, Number(t?.[c] ?? 0)])) as Record<CertificateCategory, number>;
  }

  private async bump(inc: Record<string, number>): Promise<void> {
    await this.totals.updateOne({ _id: "totals" }, { $inc: inc }, { upsert: true });
  }
}

/** Every document of a collection (the projected fields and `_id`), a bounded page at a time in `_id` order. */
async function* pages<T extends StoredDocument>(collection: Collection<T>, fields: Record<string, 1>): AsyncGenerator<Partial<T>[]> {
  let after: string | undefined;
  for (;;) {
    const filter = after === undefined ? {} : { _id: { $gt: after } };
    const page = await collection.findProjected(filter, { ...fields, _id: 1 }, { sort: { _id: 1 }, limit: RECOUNT_PAGE });
    if (page.length > 0) yield page;
    if (page.length < RECOUNT_PAGE) return;
    after = String(page[page.length - 1]!._id);
  }
}

const RECOUNT_PAGE = 10_000;
