import { expect } from "chai";
import { createHash } from "node:crypto";
import {
  COMPRESS_FROM_BYTES,
  decodeDocument,
  DICTIONARY_BYTES,
  encodeDocument,
  learnDictionary,
  RAW,
  SAMPLE_CHARS,
  type Dictionary,
} from "../../shared/store/document-codec";
import type { StoreError } from "../../shared/store";

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

/** A fact-log-like document, as the indexer writes them. */
function fact(n: number): Record<string, unknown> {
  return {
    fact: { type: "certificate.issued", hash: sha(`h${n}`), alg: "SHA-256", issuer: sha("issuer").slice(0, 56), position: n % 10 },
    slot: 1_000 + n,
    createdAt: 1_700_000_000_000 + n,
  };
}

function roundTrip(value: unknown, dictionary?: Dictionary): unknown {
  const json = JSON.stringify(value);
  const stored = encodeDocument(json, dictionary);
  const text = decodeDocument(stored, (id) => (id === dictionary?.id ? dictionary.bytes : undefined));
  expect(text).to.equal(json);
  return JSON.parse(text);
}

function corruptType(action: () => unknown): StoreError {
  try {
    action();
  } catch (err) {
    return err as StoreError;
  }
  return expect.fail("expected a StoreError");
}

describe("document codec: the stored bytes of a SQLite document", function () {
  const dictionary: Dictionary = { id: 1, bytes: learnDictionary(Array.from({ length: 8 }, (_, n) => JSON.stringify(fact(n)))) };

  it("learns a dictionary without the hex runs unique to a sample, keeping those most samples share, bounded in size", function () {
    const text = Buffer.from(dictionary.bytes).toString("utf8");
    expect(text).to.include('"certificate.issued"').and.to.include('"SHA-256"').and.to.include('"createdAt":');
    expect(text).to.include(sha("issuer").slice(0, 56));
    for (let n = 0; n < 8; n++) expect(text).not.to.include(sha(`h${n}`).slice(0, 16));
    expect(text.match(/[0-9a-f]{16,}/g)).to.deep.equal(Array(8).fill(sha("issuer").slice(0, 56)));
    const many = learnDictionary(
      Array.from({ length: 500 }, (_, n) => JSON.stringify({ ...fact(n), note: `note ${n} ${"words ".repeat(20)}` })),
    );
    expect(many.length).to.equal(DICTIONARY_BYTES);
  });

  it("learns from a sample holding one 20-million-character hex run, reading only the head of each sample", function () {
    const bucket = JSON.stringify({ treeId: sha("tree").slice(0, 32), chunk: 0, leaves: "0123456789abcdef".repeat(1_250_000) });
    const samples = [...Array.from({ length: 31 }, (_, n) => JSON.stringify(fact(n))), bucket];
    const text = Buffer.from(learnDictionary(samples)).toString("utf8");
    expect(text.endsWith('{"treeId":"","chunk":0,"leaves":"'), text.slice(-80)).to.equal(true);
    expect(text).not.to.include("0123456789abcdef");
    expect(text).to.include('"certificate.issued"');
    const tail = `${JSON.stringify({ note: "words ".repeat(SAMPLE_CHARS) })}"beyond the head"`;
    expect(Buffer.from(learnDictionary([tail])).toString("utf8"))
      .to.include("words")
      .and.not.to.include("beyond the head");
    // a cut between the two halves of a surrogate pair drops the lone half
    const emoji = learnDictionary([".".repeat(SAMPLE_CHARS - 1) + "😀"]);
    expect(Buffer.from(emoji).toString("utf8")).to.equal(".".repeat(SAMPLE_CHARS - 1));
  });

  it("compresses documents of the collection it was learned from to under half their JSON", function () {
    for (const n of [100, 5_000]) {
      const json = JSON.stringify(fact(n));
      const stored = encodeDocument(json, dictionary);
      expect(stored[0]).to.equal(dictionary.id);
      expect(stored.length).to.be.below(json.length / 2);
      roundTrip(fact(n), dictionary);
    }
  });

  it("keeps short documents, and documents without a dictionary, as JSON text behind header 0", function () {
    const short = JSON.stringify({ a: 1 });
    expect(short.length).to.be.below(COMPRESS_FROM_BYTES);
    const stored = encodeDocument(short, dictionary);
    expect(stored[0]).to.equal(RAW);
    expect(Buffer.from(stored.subarray(1)).toString("utf8")).to.equal(short);
    expect(encodeDocument(JSON.stringify(fact(1)))[0]).to.equal(RAW);
  });

  it("round-trips awkward values exactly: unicode, escapes, floats, extreme numbers, nesting, empty containers, key order", function () {
    const awkward = {
      z: "last key first",
      unicode: "é ü ß — 漢字 😀 \u{10FFFF} \u2028\u2029",
      escapes: 'quote " backslash \\ tab \t newline \n nul \u0000 del \u007f',
      numbers: [
        0,
        -1,
        1.5,
        -2.25e-7,
        1e21,
        Number.MAX_SAFE_INTEGER,
        -Number.MAX_SAFE_INTEGER,
        Number.MAX_VALUE,
        Number.MIN_VALUE,
        0.1 + 0.2,
      ],
      booleans: [true, false],
      nothing: null,
      nested: { a: { b: { c: [[], {}, [{ d: [null] }]] } } },
      empty: "",
      "key with spaces and ü": 1,
      a: "first key last",
    };
    for (const use of [undefined, dictionary]) {
      const back = roundTrip(awkward, use) as Record<string, unknown>;
      expect(back).to.deep.equal(awkward);
      expect(Object.keys(back)).to.deep.equal(Object.keys(awkward));
    }
  });

  it("round-trips with a dictionary learned from unrepresentative first documents", function () {
    const odd: Dictionary = { id: 7, bytes: learnDictionary(['{"x":1}', '{"completely":"different","shape":[true]}']) };
    for (let n = 0; n < 50; n++) roundTrip({ ...fact(n), extra: "ü".repeat(n) }, odd);
    const empty: Dictionary = { id: 2, bytes: learnDictionary([]) };
    expect(empty.bytes.length).to.equal(0);
    roundTrip(fact(3), { id: 2, bytes: learnDictionary([sha("only hex")]) });
  });

  it("fails with STORE_CORRUPT on empty bytes, an unknown dictionary, or bytes that do not inflate", function () {
    const stored = encodeDocument(JSON.stringify(fact(9)), dictionary);
    const none = corruptType(() => decodeDocument(new Uint8Array(0), () => dictionary.bytes));
    expect(none).to.include({ type: "STORE_CORRUPT" });
    const unknown = corruptType(() => decodeDocument(stored, () => undefined));
    expect(unknown).to.include({ type: "STORE_CORRUPT" });
    expect(unknown.message).to.match(/dictionary 1/);
    expect(unknown.data).to.deep.equal({ header: 1 });
    const garbage = Uint8Array.from([1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    expect(corruptType(() => decodeDocument(garbage, () => dictionary.bytes))).to.include({ type: "STORE_CORRUPT" });
    const wrongDictionary = learnDictionary(['{"unrelated":"words only, nothing shared"}']);
    const decoded = (() => {
      try {
        return decodeDocument(stored, () => wrongDictionary);
      } catch (err) {
        return err as StoreError;
      }
    })();
    // a wrong dictionary either fails to inflate or gives other text: never the document
    expect(decoded).not.to.equal(JSON.stringify(fact(9)));
  });
});
