/**
 * The credential service's projection of the indexer's `certificate.issued` facts (docs/decisions.md#credentials):
 * - an AUTH certificate registers a credential of its issuer's payment credential. Credentials are keyed by
 *   (hash, issuer): anyone who sees an AUTH hash can anchor it too, but that registers a credential of theirs,
 *   never takes over the first issuer's; a by-hash lookup names the issuer it trusts, and without one a hash
 *   registered by several issuers answers none of them;
 * - a REVOKE certificate is recorded as a revocation attempt; it counts only when its issuer is the AUTH
 *   certificate's issuer and it came after the AUTH (a revoke by anyone else, or before the AUTH, is ignored).
 * Whether a credential is active is decided when it is read, from both collections, so a rollback (which deletes
 * everything after the rollback slot from both) undoes issuing and revoking alike. Idempotent: documents are keyed
 * by the fact's id, so replayed facts overwrite themselves.
 */
import { DomainError } from "../domain/errors";
import type { DataHash, KeyHash, ScriptHash } from "../domain/hex";
import type { FactRecord } from "../indexer/fact-log";
import type { Projection } from "../indexer/fact-consumer";
import type { Collection, Store, StoredDocument } from "../store";
import { identityRecordOf } from "./identity-record";

/** CredentialResponse of docs/api.md#credentials, plus the fields a client needs to show where it came from. */
export interface CredentialResponse {
  authHash: string;
  credentialType: string;
  keriAid: string | null;
  txHash: string;
  active: boolean;
  /** No vLEI verifier is configured: always false. */
  keriVerified: boolean;
  /** Never populated (as in the reference). */
  acdc: null;
  paymentCredential: string;
  schema: string | null;
  oobi: string | null;
  slot: number;
  creationTime: number;
  /** Transaction of the issuer's revocation, when revoked. */
  revokedTxHash: string | null;
}

/** A by-hash answer: the registration, and who else registered the same hash (empty without `?issuer=`). */
export type CredentialByHash = CredentialResponse & { alsoRegisteredBy: string[] };

type CredentialDoc = StoredDocument & {
  authHash: string;
  paymentCredential: string;
  credentialType: string;
  keriAid: string | null;
  schema: string | null;
  oobi: string | null;
  txHash: string;
  slot: number;
  seq: number;
  creationTime: number;
};

type RevocationDoc = StoredDocument & { targetHash: string; revoker: string; txHash: string; slot: number; seq: number };

export class CredentialProjection implements Projection {
  readonly name = "credential-identities";
  private constructor(
    private readonly auths: Collection<CredentialDoc>,
    private readonly revocations: Collection<RevocationDoc>,
  ) {}

  static async open(store: Store): Promise<CredentialProjection> {
    const auths = store.collection<CredentialDoc>("credential_auths");
    const revocations = store.collection<RevocationDoc>("credential_revocations");
    await auths.ensureIndexes([{ fields: { authHash: 1, seq: 1 } }, { fields: { paymentCredential: 1 } }, { fields: { slot: 1 } }]);
    await revocations.ensureIndexes([{ fields: { targetHash: 1 } }, { fields: { slot: 1 } }]);
    return new CredentialProjection(auths, revocations);
  }

  async apply(facts: FactRecord[]): Promise<void> {
    for (const r of facts) {
      if (r.kind !== "fact" || r.fact.type !== "certificate.issued") continue;
      const record = identityRecordOf(r.fact.metadata);
      if (!record) continue;
      if (record.kind === "AUTH") {
        const fields = {
          authHash: r.fact.hash,
          paymentCredential: r.fact.issuer,
          credentialType: record.credentialType,
          keriAid: record.keriAid,
          schema: record.schema,
          oobi: record.oobi,
          txHash: r.txId,
          slot: r.slot,
          seq: r.seq,
          creationTime: r.time,
        };
        await this.auths.updateOne({ _id: r._id }, { $set: fields }, { upsert: true });
      } else {
        await this.revocations.updateOne(
          { _id: r._id },
          { $set: { targetHash: record.targetHash, revoker: r.fact.issuer, txHash: r.txId, slot: r.slot, seq: r.seq } },
          { upsert: true },
        );
      }
    }
  }

  async rollback(slot: number): Promise<void> {
    await this.auths.deleteMany({ slot: { $gt: slot } });
    await this.revocations.deleteMany({ slot: { $gt: slot } });
  }

  /**
   * The credential an AUTH certificate registered for `issuer` (a payment credential), active or revoked, with
   * every other issuer that registered the same hash. Without an issuer, the hash's one registration — when several
   * issuers registered it, none of them is the credential: the caller must name the issuer it trusts.
   * @throws DomainError `AMBIGUOUS_CREDENTIAL` (data: `authHash`, `issuers` in registration order) when no issuer
   *   is named and several registered the hash
   */
  async byAuthHash(hash: DataHash, issuer?: KeyHash | ScriptHash): Promise<CredentialByHash | undefined> {
    const docs = await this.auths.find({ authHash: hash }, { sort: { seq: 1 } });
    const issuers = [...new Set(docs.map((d) => d.paymentCredential))];
    if (issuer === undefined && issuers.length > 1)
      throw new DomainError(
        "AMBIGUOUS_CREDENTIAL",
        `${issuers.length} issuers registered a credential with the AUTH hash ${hash}: name the one you trust with ?issuer=`,
        { authHash: hash, issuers },
      );
    const chosen = issuer === undefined ? docs[0] : docs.find((d) => d.paymentCredential === issuer);
    if (!chosen) return undefined;
    return { ...(await this.toResponse(chosen)), alsoRegisteredBy: issuers.filter((c) => c !== chosen.paymentCredential) };
  }

  /** Active credentials of a payment credential, oldest first; only those of `type` when given. */
  async activeOf(paymentCredential: KeyHash | ScriptHash, type?: string): Promise<CredentialResponse[]> {
    const docs = await this.auths.find(
      { paymentCredential, ...(type !== undefined ? { credentialType: type } : {}) },
      { sort: { seq: 1 } },
    );
    const out: CredentialResponse[] = [];
    const seen = new Set<string>();
    for (const d of docs) {
      if (seen.has(d.authHash)) continue; // an issuer anchoring its hash twice registers once (the first)
      seen.add(d.authHash);
      const response = await this.toResponse(d);
      if (response.active) out.push(response);
    }
    return out;
  }

  private async toResponse(d: CredentialDoc): Promise<CredentialResponse> {
    const revocations = await this.revocations.find({ targetHash: d.authHash }, { sort: { seq: 1 } });
    const valid = revocations.find((r) => r.revoker === d.paymentCredential && r.seq > d.seq);
    return {
      authHash: d.authHash,
      credentialType: d.credentialType,
      keriAid: d.keriAid,
      txHash: d.txHash,
      active: valid === undefined,
      keriVerified: false,
      acdc: null,
      paymentCredential: d.paymentCredential,
      schema: d.schema,
      oobi: d.oobi,
      slot: d.slot,
      creationTime: d.creationTime,
      revokedTxHash: valid?.txHash ?? null,
    };
  }
}
