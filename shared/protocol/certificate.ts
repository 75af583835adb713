/**
 * The on-chain certificate (docs/protocol.md#certificate): `Constr 0 [hash, utf8(algorithm), issuer, extra: [chunk]]`,
 * carried in the state redeemer, and the certificate data hash the state datum keeps.
 */
import { createHash } from "node:crypto";
import { fromHex } from "../csl/hex";
import type { DataHash, KeyHash } from "../domain/hex";
import { bytes, constr, type Data, expectBytes, expectConstr, expectList, list } from "./plutus-data";
import { chunkMetadata } from "./metadata-chunks";

export interface OnchainCertificate {
  /** the anchored hash, hex */
  readonly hash: string;
  /** algorithm name, e.g. "SHA-256" (UTF-8 on chain) */
  readonly algorithm: string;
  /** payment key hash of the issuer (56 hex); must sign the transaction */
  readonly issuer: string;
  /** metadata as UTF-8 chunks of at most 64 bytes */
  readonly extra: readonly string[];
}

/** Builds the on-chain form of a certificate from its metadata text. */
export function makeCertificate(input: { hash: DataHash; algorithm: string; issuer: KeyHash; metadata: string }): OnchainCertificate {
  return {
    hash: input.hash,
    algorithm: input.algorithm,
    issuer: input.issuer,
    extra: chunkMetadata(input.metadata),
  };
}

const utf8Hex = (s: string): string => Buffer.from(s, "utf8").toString("hex");
const hexUtf8 = (h: string): string => Buffer.from(h, "hex").toString("utf8");

export function encodeCertificate(c: OnchainCertificate): Data {
  return constr(0, [bytes(c.hash), bytes(utf8Hex(c.algorithm)), bytes(c.issuer), list(c.extra.map((x) => bytes(utf8Hex(x))))]);
}

/** @throws ProtocolError INVALID_REDEEMER / INVALID_FIELD */
export function decodeCertificate(d: Data): OnchainCertificate {
  const { fields } = expectConstr(d, "certificate", { index: 0, arity: 4, type: "INVALID_REDEEMER" });
  return {
    hash: expectBytes(fields[0], "certificate.hash"),
    algorithm: hexUtf8(expectBytes(fields[1], "certificate.algorithm")),
    issuer: expectBytes(fields[2], "certificate.issuer"),
    extra: expectList(fields[3], "certificate.extra").map((x, i) => hexUtf8(expectBytes(x, `certificate.extra[${i}]`))),
  };
}

/** The bytes the validator hashes: Σ (hash ‖ utf8(algorithm) ‖ issuer ‖ Σ utf8(chunk)), in order. */
export function certificatesBytes(certs: readonly OnchainCertificate[]): Buffer {
  const parts: Buffer[] = [];
  for (const c of certs) {
    parts.push(
      Buffer.from(fromHex(c.hash, "certificate hash")),
      Buffer.from(c.algorithm, "utf8"),
      Buffer.from(fromHex(c.issuer, "issuer")),
    );
    for (const chunk of c.extra) parts.push(Buffer.from(chunk, "utf8"));
  }
  return Buffer.concat(parts);
}

/** `certificate_data_hash` of the state datum: sha2-256 over certificatesBytes, hex. */
export function certificateDataHash(certs: readonly OnchainCertificate[]): string {
  return createHash("sha256").update(certificatesBytes(certs)).digest("hex");
}
