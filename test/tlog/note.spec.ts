/**
 * shared/tlog/note.ts against c2sp.org/signed-note's own example (§Verifier keys, Example) and the known vectors of
 * Go's golang.org/x/mod/sumdb/note tests (the PeterNeumann and EnochRoot keys, note_test.go, BSD licence): key
 * parsing, a byte-exact signature, and Open's rules for unknown, duplicated, invalid and malformed signatures.
 */
import { expect } from "chai";
import {
  ed25519Signer,
  ed25519Verifier,
  generateKey,
  isValidKeyName,
  keyId,
  openNote,
  parseSignerKey,
  parseVerifierKey,
  signNote,
} from "../../shared/tlog/note";
import { sha256 } from "./reference";

const value = <T>(r: { ok: true; value: T } | { ok: false; error: string }): T => {
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

const PETER_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
const PETER_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";
const ENOCH_VKEY = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop";
const TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const PETER_SIG = "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";
const ENOCH_SIG = "— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n";
const peter = ed25519Verifier(value(parseVerifierKey(PETER_VKEY)));
const enoch = ed25519Verifier(value(parseVerifierKey(ENOCH_VKEY)));

describe("tlog note: keys", () => {
  it("computes the key ID as SHA-256(name ‖ 0x0A ‖ type ‖ key)[:4]", () => {
    const key = value(parseVerifierKey(PETER_VKEY));
    const digest = sha256(new TextEncoder().encode("PeterNeumann\n"), Uint8Array.of(1), key.publicKey);
    expect(keyId("PeterNeumann", 1, key.publicKey)).to.equal(Buffer.from(digest).readUInt32BE(0));
    expect(key.keyId).to.equal(0xc74f20a3);
  });

  it("parses the signer key of Go's tests to the same name, ID and public key as its verifier key", () => {
    const skey = value(parseSignerKey(PETER_SKEY));
    const vkey = value(parseVerifierKey(PETER_VKEY));
    expect({ ...skey, seed: undefined }).to.deep.equal({ ...vkey, seed: undefined });
  });

  it("refuses malformed verifier keys, each with a reason", () => {
    for (const bad of [
      "PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==", // wrong key length (Go's test)
      "PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", // unknown algorithm (Go's test)
      "PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", // wrong key ID
      "PeterNeumann+C74F20A3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", // uppercase hex
      "Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", // space in the name
      "PeterNeumann+c74f20a3",
      "+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
    ]) {
      const r = parseVerifierKey(bad);
      expect(r.ok, bad).to.equal(false);
      expect((r as { error: string }).error)
        .to.be.a("string")
        .and.not.equal("");
    }
  });

  it("validates key names: non-empty, no Unicode space, no plus", () => {
    for (const good of ["example.com/log", "PeterNeumann", "é"]) expect(isValidKeyName(good), good).to.equal(true);
    for (const bad of ["", "a b", "a+b", "a\u00a0b", "a\u2003b", "a\u0085b", "a\tb"])
      expect(isValidKeyName(bad), JSON.stringify(bad)).to.equal(false);
  });

  it("generates keys that sign notes their verifier key opens", () => {
    const { signerKey, verifierKey } = generateKey("example.com/generated");
    const note = signNote("hello\n", [ed25519Signer(value(parseSignerKey(signerKey)))]);
    const opened = openNote(note, [ed25519Verifier(value(parseVerifierKey(verifierKey)))]);
    expect(opened.ok).to.equal(true);
  });
});

describe("tlog note: signing and opening", () => {
  it("verifies the spec's own example note with the spec's verifier key", () => {
    const vkey = value(parseVerifierKey("example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"));
    const note =
      "This is an example message.\n\n— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n";
    const opened = openNote(note, [ed25519Verifier(vkey)]);
    expect(opened.ok && opened.value.text).to.equal("This is an example message.\n");
  });

  it("signs Go's test text byte for byte as Go's note.Sign does", () => {
    expect(signNote(TEXT, [ed25519Signer(value(parseSignerKey(PETER_SKEY)))])).to.equal(`${TEXT}\n${PETER_SIG}`);
  });

  it("opens with one known key: one verified, the other kept unverified", () => {
    const opened = value(openNote(`${TEXT}\n${PETER_SIG}${ENOCH_SIG}`, [peter]) as never) as {
      text: string;
      verified: { name: string }[];
      unverified: { name: string }[];
    };
    expect(opened.text).to.equal(TEXT);
    expect(opened.verified.map((s) => s.name)).to.deep.equal(["PeterNeumann"]);
    expect(opened.unverified.map((s) => s.name)).to.deep.equal(["EnochRoot"]);
    const both = openNote(`${TEXT}\n${PETER_SIG}${ENOCH_SIG}`, [peter, enoch]);
    expect(both.ok && both.value.verified.length).to.equal(2);
  });

  it("refuses a note with no known signature, an invalid known signature, or more than 100 signatures", () => {
    expect(openNote(`${TEXT}\n${PETER_SIG}${ENOCH_SIG}`, [])).to.include({ ok: false, problem: "no-known-signature" });
    const tampered = `${TEXT}\n${PETER_SIG.slice(0, 60)}ABCD${PETER_SIG.slice(60)}`;
    expect(openNote(tampered, [peter])).to.include({ ok: false, problem: "invalid-signature" });
    expect(openNote(`${TEXT}\n${PETER_SIG.repeat(101)}`, [peter])).to.include({ ok: false, problem: "malformed" });
    expect(openNote(`${TEXT}\n${ENOCH_SIG}`, [enoch, peter, enoch])).to.include({ ok: false, problem: "malformed" });
  });

  it("skips repeated signatures, keeping distinct unverified ones", () => {
    const enochABCD = `${ENOCH_SIG.slice(0, 60)}ABCD${ENOCH_SIG.slice(60)}`;
    const opened = openNote(`${TEXT}\n${PETER_SIG}${PETER_SIG}${ENOCH_SIG}${ENOCH_SIG}${enochABCD}`, [peter]);
    expect(opened.ok && opened.value.verified.length).to.equal(1);
    expect(opened.ok && opened.value.unverified.length).to.equal(2);
  });

  it("refuses malformed notes as Go's Open does", () => {
    for (const bad of [
      TEXT,
      `${TEXT}\n`,
      `${TEXT}\n${PETER_SIG.slice(0, -1)}`,
      `\x01${TEXT}\n${PETER_SIG}`,
      `${TEXT}\n— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=`,
      `${TEXT}\n${PETER_SIG}Unexpected line.\n`,
    ])
      expect(openNote(bad, [peter]), JSON.stringify(bad)).to.include({ ok: false, problem: "malformed" });
    const invalidUtf8 = new Uint8Array([0xff, ...new TextEncoder().encode(`${TEXT}\n${PETER_SIG}`)]);
    expect(openNote(invalidUtf8, [peter])).to.include({ ok: false, problem: "malformed" });
  });

  it("refuses to sign a text without a final newline or with a control character", () => {
    const signer = ed25519Signer(value(parseSignerKey(PETER_SKEY)));
    expect(() => signNote("abc", [signer])).to.throw(/newline/);
    expect(() => signNote("a\tb\n", [signer])).to.throw(/control character/);
  });
});
