/** The caching policy of the read routes (shared/gateway/read-caching.ts) and the gateway's validator memory. */
import { expect } from "chai";
import type { FactRecord } from "../../../shared/indexer/fact-log";
import {
  certificateCacheControl,
  certificateEtag,
  FINAL_LIST_MAX_AGE_S,
  FINAL_RECORD_MAX_AGE_S,
  ifNoneMatchNames,
  newestHeightOf,
  RECENT_MAX_AGE_S,
  ROLLBACK_HORIZON_BLOCKS,
} from "../../../shared/gateway/read-caching";
import { ANSWER_ENTRY_OVERHEAD_BYTES, ValidatorCache, type ValidatorSource } from "../../../shared/gateway/validator-cache";
import { MERKLE_SCHEME } from "../../../shared/merkle/merkle-tree";
import type { IncomingMessage, ServerResponse } from "node:http";
import { answerFromMemory } from "../../../shared/gateway/answer-from-memory";
import { API_PREFIX } from "../../../shared/gateway/openapi";
import type { RouteSpec } from "../../../shared/gateway/routes";

const H1 = "aa".repeat(32);
const H2 = "bb".repeat(32);

/** A fact log in memory, in the indexer's record shape. */
class Log implements ValidatorSource {
  records: FactRecord[] = [];
  async head() {
    return this.records.at(-1)?.seq ?? 0;
  }
  async after(cursor: number, limit: number) {
    return this.records.filter((r) => r.seq > cursor).slice(0, limit);
  }
  certificate(hash: string, height: number, algorithm = "SHA-256"): number {
    const seq = this.records.length + 1;
    this.records.push({
      _id: `tx${seq}:0`,
      seq,
      slot: height,
      blockId: `b${height}`,
      height,
      time: 0,
      txId: `tx${seq}`,
      kind: "fact",
      key: null,
      txFee: "0",
      fact: {
        type: "certificate.issued",
        position: 0,
        hash,
        algorithm,
        issuer: "",
        metadata: "",
        stateId: null,
        bootstrapName: null,
        purpose: "update",
      } as never,
    });
    return seq;
  }
  rollback(to: number): number {
    const seq = this.records.length + 1;
    this.records.push({
      _id: `rollback:${seq}`,
      seq,
      slot: to,
      blockId: "b",
      height: to,
      time: 0,
      txId: "",
      kind: "rollback",
      rollbackTo: to,
    });
    return seq;
  }
}

describe("read caching policy", () => {
  it("keeps an answer fresh for seconds until its newest anchor is deeper than the rollback horizon", () => {
    expect(certificateCacheControl("certificate-list", 100, undefined)).to.equal(`public, max-age=${RECENT_MAX_AGE_S}`);
    expect(certificateCacheControl("certificate-list", 100, 100 + ROLLBACK_HORIZON_BLOCKS - 1)).to.equal(
      `public, max-age=${RECENT_MAX_AGE_S}`,
    );
    expect(certificateCacheControl("certificate-list", 100, 100 + ROLLBACK_HORIZON_BLOCKS)).to.equal(
      `public, max-age=${FINAL_LIST_MAX_AGE_S}`,
    );
    expect(certificateCacheControl("certificate-record", 100, 100 + ROLLBACK_HORIZON_BLOCKS)).to.equal(
      `public, max-age=${FINAL_RECORD_MAX_AGE_S}`,
    );
  });

  it("names a certificate answer by the chain position of its newest record", () => {
    const at = { blockHash: "11".repeat(32), transactionHash: "22".repeat(32), position: 0 };
    expect(certificateEtag(at)).to.equal(certificateEtag({ ...at }));
    expect(certificateEtag({ ...at, blockHash: "33".repeat(32) })).to.not.equal(certificateEtag(at));
    expect(certificateEtag({ ...at, position: 1 })).to.not.equal(certificateEtag(at));
  });

  it("takes the freshness of a list from its newest record, wherever it sits (batch records follow direct ones)", () => {
    expect(newestHeightOf([{ blockNumber: 9 }, { blockNumber: 3 }])).to.equal(9);
    expect(newestHeightOf({ blockNumber: 4 })).to.equal(4);
    expect(newestHeightOf([])).to.equal(undefined);
  });

  it("matches If-None-Match lists, weak forms and *", () => {
    expect(ifNoneMatchNames('"x", "y"', '"y"')).to.equal(true);
    expect(ifNoneMatchNames('W/"y"', '"y"')).to.equal(true);
    expect(ifNoneMatchNames("*", '"y"')).to.equal(true);
    expect(ifNoneMatchNames('"x"', '"y"')).to.equal(false);
    expect(ifNoneMatchNames(undefined, '"y"')).to.equal(false);
  });
});

describe("gateway validator memory", () => {
  const v = (etag: string) => ({ etag, newestHeight: 1 });

  it("remembers an answer read after every change of its hash, and forgets it at the next certificate of that hash", async () => {
    const log = new Log();
    log.certificate(H1, 1);
    const cache = new ValidatorCache(log);
    await cache.catchUp();
    cache.remember(H1, "list", v('"a"'), 1);
    cache.remember(H2, "list", v('"b"'), 1);
    expect(cache.find(H1, "list")?.etag).to.equal('"a"');
    log.certificate(H1, 2);
    await cache.catchUp();
    expect(cache.find(H1, "list")).to.equal(undefined);
    expect(cache.find(H2, "list")?.etag).to.equal('"b"');
  });

  it("refuses an answer read before a change of its hash it already knows", async () => {
    const log = new Log();
    const cache = new ValidatorCache(log);
    await cache.catchUp();
    const changed = log.certificate(H1, 1);
    await cache.catchUp();
    cache.remember(H1, "list", v('"old"'), changed - 1);
    expect(cache.find(H1, "list")).to.equal(undefined);
    cache.remember(H1, "list", v('"new"'), changed);
    expect(cache.find(H1, "list")?.etag).to.equal('"new"');
  });

  it("forgets everything at a rollback marker, and refuses answers read before it", async () => {
    const log = new Log();
    log.certificate(H1, 1);
    const cache = new ValidatorCache(log);
    await cache.catchUp();
    cache.remember(H2, "list", v('"b"'), 1);
    const marker = log.rollback(0);
    await cache.catchUp();
    expect(cache.find(H2, "list")).to.equal(undefined);
    cache.remember(H2, "list", v('"b"'), marker - 1);
    expect(cache.find(H2, "list")).to.equal(undefined);
    cache.remember(H2, "list", v('"b"'), marker);
    expect(cache.find(H2, "list")?.etag).to.equal('"b"');
  });

  it("forgets everything when a certificate anchors a Merkle batch root (it anchors hashes the fact does not name)", async () => {
    const log = new Log();
    const cache = new ValidatorCache(log);
    await cache.catchUp();
    cache.remember(H2, "list", v('"b"'), 0);
    const root = log.certificate(H1, 1, MERKLE_SCHEME);
    await cache.catchUp();
    expect(cache.find(H2, "list")).to.equal(undefined);
    cache.remember(H2, "list", v('"b"'), root - 1);
    expect(cache.find(H2, "list")).to.equal(undefined);
  });

  it("remembers nothing before it has read the log, and starts over when the log is behind what it knew", async () => {
    const log = new Log();
    const cache = new ValidatorCache(log);
    cache.remember(H1, "list", v('"a"'), 5);
    expect(cache.find(H1, "list")).to.equal(undefined);
    log.certificate(H2, 1);
    log.certificate(H2, 2);
    await cache.catchUp();
    cache.remember(H1, "list", v('"a"'), 2);
    expect(cache.find(H1, "list")?.etag).to.equal('"a"');
    cache.noteBlock(3, 0); // a new, empty log
    expect(cache.find(H1, "list")).to.equal(undefined);
    expect(cache.tipHeight).to.equal(3);
  });

  it("stays within its bounds by forgetting", async () => {
    const log = new Log();
    const cache = new ValidatorCache(log, { maxHashes: 2, maxChanges: 10, maxBodyBytes: 0 });
    await cache.catchUp();
    cache.remember("01", "list", v('"1"'), 0);
    cache.remember("02", "list", v('"2"'), 0);
    cache.remember("03", "list", v('"3"'), 0);
    expect(cache.find("01", "list")).to.equal(undefined);
    expect(cache.find("03", "list")?.etag).to.equal('"3"');
  });

  it("keeps whole answers within its byte budget, the oldest unused out first, and counts hits and misses", async () => {
    const log = new Log();
    const body = (n: number) => Buffer.alloc(n, 0x61);
    const entry = (n: number) => n + ANSWER_ENTRY_OVERHEAD_BYTES;
    const cache = new ValidatorCache(log, { maxHashes: 100, maxChanges: 100, maxBodyBytes: entry(100) * 2 });
    await cache.catchUp();
    cache.remember("01", "list", { ...v('"1"'), body: body(100) }, 0);
    cache.remember("02", "list", { ...v('"2"'), body: body(100) }, 0);
    expect(cache.findAnswer("01", "list")?.body.length).to.equal(100); // 01 is now the most recently used
    cache.remember("03", "list", { ...v('"3"'), body: body(100) }, 0);
    expect(cache.find("02", "list"), "the oldest unused").to.equal(undefined);
    expect(cache.findAnswer("01", "list")?.etag).to.equal('"1"');
    expect(cache.findAnswer("03", "list")?.etag).to.equal('"3"');
    expect(cache.findAnswer("02", "list")).to.equal(undefined);
    expect(cache.stats()).to.deep.equal({ hits: 3, misses: 1, hashes: 2, bodyBytes: entry(100) * 2, maxBodyBytes: entry(100) * 2 });
    // A body larger than the whole budget: the validator is kept, the body is not.
    cache.remember("04", "list", { ...v('"4"'), body: body(entry(100) * 3) }, 0);
    expect(cache.find("04", "list")?.etag).to.equal('"4"');
    expect(cache.findAnswer("04", "list")).to.equal(undefined);
    expect(cache.stats().bodyBytes).to.be.at.most(entry(100) * 2);
  });

  it("forgets a whole answer, and its bytes, at the next certificate of its hash and at a rollback", async () => {
    const log = new Log();
    const cache = new ValidatorCache(log, { maxHashes: 100, maxChanges: 100, maxBodyBytes: 1_000_000 });
    await cache.catchUp();
    cache.remember(H1, "list", { ...v('"a"'), body: Buffer.from("[1]") }, 0);
    cache.remember(H1, `tx:${"ab".repeat(32)}`, { ...v('"t"'), body: Buffer.from("{}") }, 0);
    cache.remember(H2, "list", { ...v('"b"'), body: Buffer.from("[2]") }, 0);
    log.certificate(H1, 1);
    await cache.catchUp();
    expect(cache.findAnswer(H1, "list")).to.equal(undefined);
    expect(cache.findAnswer(H1, `tx:${"ab".repeat(32)}`)).to.equal(undefined);
    expect(cache.findAnswer(H2, "list")?.body.toString()).to.equal("[2]");
    expect(cache.stats().bodyBytes).to.equal(3 + ANSWER_ENTRY_OVERHEAD_BYTES);
    log.rollback(0);
    await cache.catchUp();
    expect(cache.findAnswer(H2, "list")).to.equal(undefined);
    expect(cache.stats()).to.include({ hashes: 0, bodyBytes: 0 });
  });
});

describe("gateway answers from memory before the router", () => {
  /** A router over `paths` (GET), resolving the way moleculer-web does: the first alias whose pattern matches. */
  function router(paths: string[]) {
    const resolved: string[] = [];
    const aliases = paths.map((path) => {
      const regex = new RegExp(`^${API_PREFIX}${path.replace(/\{([a-zA-Z]+)\}/g, "(?<$1>[^/]+)")}$`);
      return {
        method: "GET",
        routeSpec: { path, cache: path === "/verify/{hash}" ? "certificate-list" : undefined } as unknown as RouteSpec,
        match: (url: string) => {
          const m = regex.exec(url);
          return m ? (m.groups ?? {}) : false;
        },
      };
    });
    return {
      resolved,
      service: {
        aliases,
        resolveAlias(url: string) {
          resolved.push(url);
          for (const alias of aliases) {
            const params = alias.match(url);
            if (params) return { alias, params };
          }
          return false as const;
        },
        writeCorsHeaders() {},
      },
    };
  }
  const answered = () => {
    const out: { status?: number; headers?: Record<string, unknown>; body?: unknown } = {};
    const res = {
      writeHead(status: number, headers: Record<string, unknown>) {
        Object.assign(out, { status, headers });
        return res;
      },
      end(body?: unknown) {
        out.body = body;
      },
    };
    return { out, res: res as unknown as ServerResponse };
  };
  const request = (url: string) => ({ method: "GET", url, headers: {} }) as IncomingMessage;

  async function cacheWith(hash: string) {
    const cache = new ValidatorCache(new Log(), { maxHashes: 10, maxChanges: 10, maxBodyBytes: 1_000_000 });
    await cache.catchUp();
    cache.remember(hash, "list", { etag: '"e"', newestHeight: 1, body: Buffer.from("[]") }, 0);
    return cache;
  }

  it("answers a remembered hex hash with its bytes, resolving /verify/{hash} once instead of per request", async () => {
    const { service, resolved } = router(["/scripts/{scriptHash}", "/verify/{hash}"]);
    const cache = await cacheWith(H1);
    for (const url of [`${API_PREFIX}/verify/${H1}`, `${API_PREFIX}/verify/${H1.toUpperCase()}`]) {
      const { out, res } = answered();
      expect(answerFromMemory(service as never, cache, request(url), res)).to.equal(true);
      expect(out.status).to.equal(200);
      expect(String(out.body)).to.equal("[]");
      expect(out.headers).to.include({ ETag: '"e"', "Content-Length": 2 });
    }
    expect(resolved).to.deep.equal([`${API_PREFIX}/verify/00`]);
  });

  it("leaves the path to the router when another route of one segment under /verify/ could take it", async () => {
    const { service, resolved } = router(["/verify/abc", "/verify/{hash}"]);
    const cache = await cacheWith("abc");
    const { res } = answered();
    expect(answerFromMemory(service as never, cache, request(`${API_PREFIX}/verify/abc`), res)).to.equal(false);
    expect(resolved).to.include(`${API_PREFIX}/verify/abc`);
  });
});
