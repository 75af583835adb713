import { expect } from "chai";
import { normaliseCertificate, normaliseCertificates } from "../../../shared/domain/certificate-request";
import { DomainError } from "../../../shared/domain/errors";

function rejection(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error("expected a DomainError, nothing was thrown");
}

describe("certificate request", () => {
  it("lowercases the hash and defaults the algorithm from its length", () => {
    expect(normaliseCertificate({ hash: "AB".repeat(32) })).to.deep.equal({ hash: "ab".repeat(32), algorithm: "SHA-256", metadata: "" });
    expect(normaliseCertificate({ hash: "cd".repeat(64) }).algorithm).to.equal("SHA-512");
  });

  it("stores a metadata object as its JSON text and keeps a string as given", () => {
    expect(normaliseCertificate({ hash: "00".repeat(32), metadata: { a: 1 } }).metadata).to.equal('{"a":1}');
    expect(normaliseCertificate({ hash: "00".repeat(32), metadata: '{"b":2}' }).metadata).to.equal('{"b":2}');
  });

  it("rejects empty, odd-length, non-hex and over-long hashes with BAD_REQUEST", () => {
    for (const hash of ["", "abc", "zz".repeat(32), "00".repeat(65), 42]) {
      expect(rejection(() => normaliseCertificate({ hash })).type).to.equal("BAD_REQUEST");
    }
  });

  it("requires an algorithm when the hash length does not name one", () => {
    const err = rejection(() => normaliseCertificate({ hash: "00".repeat(20) }));
    expect(err.message).to.match(/algorithm is required/);
    expect(normaliseCertificate({ hash: "00".repeat(20), algorithm: "SHA-1" }).algorithm).to.equal("SHA-1");
  });

  it("rejects a missing or empty certificate list", () => {
    expect(rejection(() => normaliseCertificates([])).message).to.match(/non-empty array/);
    expect(rejection(() => normaliseCertificates(undefined)).type).to.equal("BAD_REQUEST");
  });
});
