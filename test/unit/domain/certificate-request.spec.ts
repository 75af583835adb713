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

  it("refuses an algorithm that is empty, blank, too long or unprintable, naming the field; null means the default", () => {
    for (const algorithm of ["", "  ", "x".repeat(65), "SHA\u0000", "SHA\u009b", "SHA\ud800", 7]) {
      const err = rejection(() => normaliseCertificate({ hash: "00".repeat(32), algorithm }));
      expect(err.type).to.equal("BAD_REQUEST");
      expect(err.message).to.match(/^certificates\[0\]\.algorithm /);
      expect(err.data).to.include({ field: "certificates[0].algorithm" });
    }
    expect(normaliseCertificate({ hash: "00".repeat(32), algorithm: null }).algorithm).to.equal("SHA-256");
  });

  it('refuses metadata with an unprintable key or value and reads missing, null and "" as no metadata', () => {
    const err = rejection(() => normaliseCertificate({ hash: "00".repeat(32), metadata: { name: "\u001b[31mAda" } }, 2));
    expect(err.message).to.equal("certificates[2].metadata.name holds the control character U+001B at character 1");
    expect(err.data).to.include({ field: "certificates[2].metadata" });
    for (const metadata of [undefined, null, ""]) expect(normaliseCertificate({ hash: "00".repeat(32), metadata }).metadata).to.equal("");
  });

  it("rejects a missing or empty certificate list", () => {
    expect(rejection(() => normaliseCertificates([])).message).to.match(/non-empty array/);
    expect(rejection(() => normaliseCertificates(undefined)).type).to.equal("BAD_REQUEST");
  });
});
