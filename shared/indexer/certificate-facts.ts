/**
 * Certificate facts read by data hash, from a collection of fact records in the log's stored form (the fact log
 * itself, or a copy of its certificate facts kept by a reader with a store of its own), through an index on
 * `fact.hash` (`CERTIFICATE_HASH_INDEX`). The verifier's records are these facts (docs/architecture.md#who-holds-the-certificates).
 */
import type { Hex } from "../domain/hex";
import type { Collection, IndexSpec } from "../store";
import { restored, type FactRecord } from "./fact-records";
import type { ProtocolFact } from "./protocol-decoder";

/**
 * The index certificate reads use. Not sparse, though only certificate facts carry a hash: SQLite's partial index
 * (the port's sparse index there) is not chosen for an equality on the field, and the other facts are few (one
 * state fact per protocol transaction against its certificates) and cost a null key each.
 */
export const CERTIFICATE_HASH_INDEX: IndexSpec = { fields: { "fact.hash": 1 } };

/** A certificate fact as read back: a fact record whose fact is a `certificate.issued`. */
export type CertificateFact = FactRecord & { kind: "fact"; fact: Extract<ProtocolFact, { type: "certificate.issued" }> };

function isCertificate(r: FactRecord): r is CertificateFact {
  return r.kind === "fact" && r.fact.type === "certificate.issued";
}

export class CertificateFacts {
  constructor(private readonly facts: Collection<FactRecord>) {}

  /**
   * Every certificate fact of a data hash, oldest first: by slot, then position in the transaction's certificate
   * list, then log order.
   */
  async byHash(hash: Hex): Promise<CertificateFact[]> {
    // The filter names only the indexed field (NeDB uses an index only then); other fact types carry no `hash`.
    const rows = (await this.facts.find({ "fact.hash": hash })).map(restored).filter(isCertificate);
    return rows.sort((a, b) => a.slot - b.slot || a.fact.position - b.fact.position || a.seq - b.seq);
  }

  /**
   * Every certificate fact whose data hash starts with `prefix` (lowercase hex), in log order: a range of the same
   * index (every lowercase hex string starting with the prefix sorts before the prefix followed by "g").
   */
  async byHashPrefix(prefix: string): Promise<CertificateFact[]> {
    const rows = await this.facts.find({ "fact.hash": { $gte: prefix, $lt: `${prefix}g` } });
    return rows
      .map(restored)
      .filter(isCertificate)
      .sort((a, b) => a.seq - b.seq);
  }

  /** How many certificate facts the collection holds. */
  async count(): Promise<number> {
    return this.facts.count({ "fact.type": "certificate.issued" });
  }
}
