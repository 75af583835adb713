/**
 * The webhook routes over HTTP (issue 26), through the gateway and the events service in one broker, with the
 * operator's defaults for the SSRF rules (no private networks): registration answers the secret and the management
 * token once and no other answer shows them, nor does any log line; the token manages its endpoints and nothing
 * else (401 without one, 403 for another's); the SSRF rules refuse loopback, link-local, private and IPv6 loopback
 * endpoints with a 400 naming the range; every bad body or parameter is a 400 naming the field; the bounds per token
 * (409) and per client (429) hold. Deliveries themselves: mesh-delivery.spec.ts.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { CaptureLogger } from "../../fixtures/mesh/capture-logger";
import { errorBody, http, postJson, type HttpResult } from "../../fixtures/mesh/helpers";
import { startMesh, type RunningMesh } from "../../fixtures/mesh/mesh-harness";
import { createStore, type Store } from "../../shared/store";
import { generateMnemonic, Wallet } from "../../shared/wallet";

const PER_TOKEN = 3;
const PER_HOUR = 5;
const PUBLIC_URL = "https://1.1.1.1/hook";
const hash = () => randomBytes(32).toString("hex");

describe("webhooks: the routes, authorization, SSRF rules and bad input (gateway + events)", function () {
  this.timeout(60_000);
  const logs = new CaptureLogger("trace");
  let store: Store;
  let mesh: RunningMesh;
  /** Each test is its own client (X-Forwarded-For, TRUST_PROXY=1), so the per-client bound counts per test. */
  let client = 0;
  let ip = "";
  const url = (path: string) => `${mesh.api}${path}`;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    postJson(url(path), body, { "X-Forwarded-For": ip, ...headers });
  const get = (path: string, headers: Record<string, string> = {}) => http(url(path), { headers: { "X-Forwarded-For": ip, ...headers } });
  const del = (path: string, headers: Record<string, string> = {}) =>
    http(url(path), { method: "DELETE", headers: { "X-Forwarded-For": ip, ...headers } });
  const register = (body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    post("/webhooks", { url: PUBLIC_URL, subjects: [`hash:${hash()}`], ...body }, headers);
  /** Every answer's text, to look for secrets in. */
  const answers: string[] = [];
  const seen = (res: HttpResult): HttpResult => (answers.push(res.text), res);

  before(async () => {
    store = await createStore({ inMemory: true });
    mesh = await startMesh({
      services: ["gateway", "events"],
      store,
      chain: { ogmiosUrl: "ws://127.0.0.1:9", network: "devnet", devnet: null },
      env: {
        TRUST_PROXY: "1",
        USER_ACTION_SIGNING_MNEMONIC: generateMnemonic(),
        WEBHOOKS_MAX_ENDPOINTS_PER_TOKEN: String(PER_TOKEN),
        WEBHOOKS_REGISTRATIONS_PER_HOUR: String(PER_HOUR),
      },
      brokerOverrides: { logger: logs },
    });
  });
  /** A client of its own (a test that registers more than the per-client bound takes one per case). */
  const nextClient = () => {
    client += 1;
    ip = `198.51.${100 + Math.floor(client / 250)}.${client % 250}`;
  };
  beforeEach(nextClient);
  after(async () => {
    await mesh?.stop();
    await store?.close();
  });

  it("registers: 201 with the endpoint, its secret and a management token; no other answer and no log line shows either", async () => {
    const subject = `hash:${hash().toUpperCase()}`;
    const res = seen(await register({ subjects: [subject], types: ["certificate.anchored"], description: "my hook" }));
    expect(res.status).to.equal(201);
    const made = res.json as Record<string, unknown> & { id: string; secret: string; managementToken: string };
    expect(made).to.deep.include({
      url: PUBLIC_URL,
      subjects: [subject.toLowerCase()],
      types: ["certificate.anchored"],
      description: "my hook",
      status: "active",
      consecutiveFailures: 0,
    });
    expect(made.id).to.match(/^ep_[0-9a-f]{32}$/);
    expect(made.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(made.managementToken).to.match(/^whm_[A-Za-z0-9_-]{43}$/);
    expect(made).to.not.have.property("owner");

    const one = seen(await get(`/webhooks/${made.id}`, auth(made.managementToken)));
    expect(one.status).to.equal(200);
    expect(one.json).to.deep.equal(Object.fromEntries(Object.entries(made).filter(([k]) => k !== "secret" && k !== "managementToken")));
    const list = seen(await get("/webhooks", auth(made.managementToken)));
    expect((list.json as { endpoints: { id: string }[] }).endpoints.map((e) => e.id)).to.deep.equal([made.id]);

    // a rotation shows the new secret once; the endpoint says when its secret was made
    const rotated = seen(await post(`/webhooks/${made.id}/rotate-secret`, {}, auth(made.managementToken)));
    expect(rotated.status).to.equal(200);
    const { secret: next, previousSecretValidUntil } = rotated.json as { secret: string; previousSecretValidUntil: number };
    expect(next)
      .to.match(/^whsec_/)
      .and.not.equal(made.secret);
    expect(previousSecretValidUntil).to.be.greaterThan(Date.now() + 23 * 3600_000);
    const after = seen(await get(`/webhooks/${made.id}`, auth(made.managementToken)));
    expect((after.json as { secretCreatedAt: number }).secretCreatedAt).to.be.at.least(made.createdAt as number);
    expect(seen(await post(`/webhooks/${made.id}/enable`, {}, auth(made.managementToken))).status).to.equal(200);

    const shown = answers.filter((a) => a.includes(made.secret) || a.includes(next) || a.includes(made.managementToken));
    expect(shown, "only the registration and the rotation show a secret or the token").to.deep.equal([res.text, rotated.text]);
    expect(logs.lines.length, "the broker logged at trace level").to.be.greaterThan(10);
    for (const secret of [made.secret, next, made.managementToken, made.secret.slice(6), next.slice(6)])
      expect(logs.text(), "no log line holds a secret or the token").to.not.include(secret);
  });

  it("adds endpoints to a token it is presented, up to WEBHOOKS_MAX_ENDPOINTS_PER_TOKEN (409 beyond)", async () => {
    const first = (await register()).json as { id: string; managementToken: string };
    const more = [];
    for (let i = 1; i < PER_TOKEN; i++) {
      const res = await register({}, auth(first.managementToken));
      expect(res.status).to.equal(201);
      expect(res.json, "no new token when one was presented").to.not.have.property("managementToken");
      more.push((res.json as { id: string }).id);
    }
    const over = await register({}, auth(first.managementToken));
    expect(over.status).to.equal(409);
    expect(errorBody(over)).to.include({ error: "WEBHOOK_LIMIT_REACHED" });
    expect(errorBody(over).message).to.contain(`at most ${PER_TOKEN}`);
    const list = (await get("/webhooks", auth(first.managementToken))).json as { endpoints: { id: string }[] };
    // endpoints registered within one millisecond have no order between them
    expect(list.endpoints.map((e) => e.id).sort()).to.deep.equal([first.id, ...more].sort());
  });

  it("needs the token of the endpoint: 401 without one or with a malformed one, 403 with another's, 404 for an unknown id", async () => {
    const mine = (await register()).json as { id: string; managementToken: string };
    const theirs = (await register()).json as { id: string; managementToken: string };
    const routes: [string, (headers: Record<string, string>) => Promise<HttpResult>][] = [
      ["GET", (h) => get(`/webhooks/${mine.id}`, h)],
      ["DELETE", (h) => del(`/webhooks/${mine.id}`, h)],
      ["rotate", (h) => post(`/webhooks/${mine.id}/rotate-secret`, {}, h)],
      ["enable", (h) => post(`/webhooks/${mine.id}/enable`, {}, h)],
      ["dead letters", (h) => get(`/webhooks/${mine.id}/dead-letters`, h)],
      ["replay", (h) => post(`/webhooks/${mine.id}/replay`, { fromEventId: "0" }, h)],
    ];
    for (const [what, call] of routes) {
      const none = await call({});
      expect([none.status, errorBody(none).error], what).to.deep.equal([401, "WEBHOOK_TOKEN_REQUIRED"]);
      const malformed = await call({ Authorization: "Bearer not-a-token" });
      expect([malformed.status, errorBody(malformed).error], what).to.deep.equal([401, "INVALID_WEBHOOK_TOKEN"]);
      const basic = await call({ Authorization: `Basic ${mine.managementToken}` });
      expect(basic.status, what).to.equal(401);
      const foreign = await call(auth(theirs.managementToken));
      expect([foreign.status, errorBody(foreign).error], what).to.deep.equal([403, "WEBHOOK_TOKEN_REJECTED"]);
      const unknown = await call(auth(`whm_${randomBytes(32).toString("base64url")}`));
      expect(unknown.status, what).to.equal(403);
    }
    const missing = await get(`/webhooks/ep_${"0".repeat(32)}`, auth(mine.managementToken));
    expect([missing.status, errorBody(missing).error]).to.deep.equal([404, "WEBHOOK_ENDPOINT_NOT_FOUND"]);
    expect((await get("/webhooks/nope", auth(mine.managementToken))).status).to.equal(404);
    expect((await get("/webhooks", {})).status).to.equal(401);
    // a registration may present a token; a malformed one is refused
    expect(errorBody(await register({}, { Authorization: "Bearer whm_short" })).error).to.equal("INVALID_WEBHOOK_TOKEN");
    // still there, untouched by the refused calls
    expect((await get(`/webhooks/${mine.id}`, auth(mine.managementToken))).status).to.equal(200);
  });

  it("deletes an endpoint: 404 afterwards, and gone from its token's list", async () => {
    const made = (await register()).json as { id: string; managementToken: string };
    const res = await del(`/webhooks/${made.id}`, auth(made.managementToken));
    expect([res.status, res.json]).to.deep.equal([200, { id: made.id, deleted: true }]);
    expect((await get(`/webhooks/${made.id}`, auth(made.managementToken))).status).to.equal(404);
    expect((await del(`/webhooks/${made.id}`, auth(made.managementToken))).status).to.equal(404);
    expect(((await get("/webhooks", auth(made.managementToken))).json as { endpoints: unknown[] }).endpoints).to.deep.equal([]);
  });

  it("refuses endpoints on loopback, link-local, private and IPv6 loopback addresses with 400 ENDPOINT_ADDRESS_REFUSED saying why", async () => {
    const cases: [string, RegExp][] = [
      ["http://127.0.0.1:8080/hook", /127\.0\.0\.1:8080 is loopback \(127\.0\.0\.1\).*unless the operator allows them/],
      ["https://169.254.169.254/latest/meta-data/", /169\.254\.169\.254 is link-local/],
      ["https://[::1]/hook", /\[::1\] is loopback \(::1\)/],
      ["https://10.0.0.1/hook", /10\.0\.0\.1 is private/],
      ["https://192.168.1.20/hook", /is private/],
      ["https://[::ffff:127.0.0.1]/hook", /loopback \(IPv4-mapped\)/],
      ["https://2130706433/hook", /127\.0\.0\.1 is loopback/],
      ["http://localhost:3000/hook", /localhost is loopback/],
      ["https://0.0.0.0/hook", /needs a unicast address/],
    ];
    for (const [endpoint, reason] of cases) {
      nextClient();
      const res = await register({ url: endpoint });
      expect(res.status, endpoint).to.equal(400);
      expect(errorBody(res).error, endpoint).to.equal("ENDPOINT_ADDRESS_REFUSED");
      expect(errorBody(res).message, endpoint).to.match(reason);
      // the challenge of an address proof checks the URL the same way
      const challenge = await post("/webhooks/challenge", { address: "addr_test1vq0000", url: endpoint });
      expect(challenge.status, endpoint).to.equal(400);
    }
    nextClient();
    const plain = await register({ url: "ftp://example.com/x" });
    expect([plain.status, errorBody(plain).error]).to.deep.equal([400, "INVALID_ENDPOINT_URL"]);
    const withCredentials = await register({ url: "https://user:pw@example.com/x" });
    expect(errorBody(withCredentials).message).to.contain("no user name or password");
  });

  it("answers bad bodies and parameters with 400 JSON naming the field", async () => {
    const bodies: [unknown, string, RegExp][] = [
      [{ subjects: [`hash:${hash()}`] }, "INVALID_WEBHOOK_REQUEST", /^url: is required/],
      [{ url: 42, subjects: [`hash:${hash()}`] }, "INVALID_WEBHOOK_REQUEST", /^url: must be a non-empty string/],
      [{ url: PUBLIC_URL }, "INVALID_WEBHOOK_REQUEST", /^subjects: is required/],
      [{ url: PUBLIC_URL, subjects: [] }, "INVALID_WEBHOOK_REQUEST", /^subjects: must hold 1 to 100 entries/],
      [{ url: PUBLIC_URL, subjects: "hash:ab" }, "INVALID_WEBHOOK_REQUEST", /^subjects: must be a list/],
      [{ url: PUBLIC_URL, subjects: ["hash:xyz"] }, "INVALID_WEBHOOK_FILTER", /^subjects: .*hash subject is 2 to 128 hex digits/],
      [{ url: PUBLIC_URL, subjects: ["account:1"] }, "INVALID_WEBHOOK_FILTER", /^subjects: .*kind one of address, hash/],
      [{ url: PUBLIC_URL, subjects: [7] }, "INVALID_WEBHOOK_FILTER", /^subjects: a subject is a string/],
      [
        { url: PUBLIC_URL, subjects: [`hash:${hash()}`], types: ["certificate.issued"] },
        "INVALID_WEBHOOK_FILTER",
        /^types: "certificate.issued" is not an event type/,
      ],
      [
        { url: PUBLIC_URL, subjects: [`hash:${hash()}`], description: "x".repeat(257) },
        "INVALID_WEBHOOK_REQUEST",
        /^description: must be at most 256/,
      ],
      [
        { url: PUBLIC_URL, subjects: [`hash:${hash()}`], subject: "typo" },
        "INVALID_WEBHOOK_REQUEST",
        /^subject: unknown parameter; this route takes url, subjects, types, description, addressProofs/,
      ],
      [
        { url: PUBLIC_URL, subjects: [`hash:${hash()}`], addressProofs: [{}] },
        "INVALID_WEBHOOK_REQUEST",
        /^addressProofs\[0\]\.address: is required/,
      ],
      [
        { url: PUBLIC_URL, subjects: [`hash:${hash()}`], addressProofs: ["x"] },
        "INVALID_WEBHOOK_REQUEST",
        /^addressProofs\[0\]: must be an object/,
      ],
      [[PUBLIC_URL], "INVALID_BODY", /JSON object/],
    ];
    for (const [body, error, message] of bodies) {
      nextClient();
      const res = await post("/webhooks", body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
      expect(errorBody(res).error, JSON.stringify(body).slice(0, 80)).to.equal(error);
      expect(errorBody(res).message, JSON.stringify(body).slice(0, 80)).to.match(message);
    }
    const malformed = await http(url("/webhooks"), { method: "POST", headers: { "Content-Type": "application/json" }, body: "{nope" });
    expect([malformed.status, errorBody(malformed).error]).to.deep.equal([400, "MALFORMED_JSON"]);

    nextClient();
    const made = (await register()).json as { id: string; managementToken: string };
    const token = auth(made.managementToken);
    const params: [Promise<HttpResult>, RegExp][] = [
      [post(`/webhooks/${made.id}/replay`, {}, token), /^fromEventId: is required/],
      [post(`/webhooks/${made.id}/replay`, { fromEventId: "-1" }, token), /^fromEventId: must be a decimal event id/],
      [post(`/webhooks/${made.id}/replay`, { fromEventId: "1", from: "2" }, token), /^from: unknown parameter/],
      [post(`/webhooks/${made.id}/rotate-secret`, { secret: "mine" }, token), /^secret: unknown parameter; this route takes none/],
      [get(`/webhooks/${made.id}/dead-letters?limit=0`, token), /^limit: must be an integer from 1 to 100/],
      [get(`/webhooks/${made.id}/dead-letters?limit=abc`, token), /^limit: must be an integer/],
      [get(`/webhooks/${made.id}/dead-letters?after=zzz`, token), /^after: must be the `next` of the previous page/],
      [get(`/webhooks?status=active`, token), /^status: unknown parameter; this route takes none/],
      [post("/webhooks/challenge", { url: PUBLIC_URL }), /^address: is required/],
    ];
    for (const [call, message] of params) {
      const res = await call;
      expect([res.status, errorBody(res).error]).to.deep.equal([400, "INVALID_WEBHOOK_REQUEST"]);
      expect(errorBody(res).message).to.match(message);
    }
    const page = await get(`/webhooks/${made.id}/dead-letters?limit=5`, token);
    expect([page.status, page.json]).to.deep.equal([200, { items: [] }]);
  });

  it("needs a proof for an address subject: 400 naming addressProofs; the challenge refuses what is no key address of this network", async () => {
    const address = Wallet.fromMnemonic(generateMnemonic(), { networkId: 0 }).enterpriseAddress;
    const res = await register({ subjects: [`address:${address}`] });
    expect([res.status, errorBody(res).error]).to.deep.equal([400, "ADDRESS_PROOF_REQUIRED"]);
    expect(errorBody(res).message).to.match(/^addressProofs: address:addr_test1.* needs a proof that you control the address/);
    expect(errorBody(res)).to.include({ field: "addressProofs", subject: `address:${address}` });
    const mainnet = await register({
      subjects: [`address:${Wallet.fromMnemonic(generateMnemonic(), { networkId: 1 }).enterpriseAddress}`],
    });
    expect([mainnet.status, errorBody(mainnet).error]).to.deep.equal([400, "INVALID_WEBHOOK_FILTER"]);
    expect(errorBody(mainnet).message).to.contain("another network");
    const challenge = await post("/webhooks/challenge", { address: "addr_test1qqqq", url: PUBLIC_URL });
    expect([challenge.status, errorBody(challenge).error]).to.deep.equal([400, "INVALID_ADDRESS"]);
    const good = await post("/webhooks/challenge", { address, url: "https://1.1.1.1/hook?x=1" });
    expect(good.status).to.equal(200);
    expect(good.json).to.deep.include({ address, url: "https://1.1.1.1/hook?x=1" });
    expect((good.json as { message: string }).message).to.match(
      /^\[WEBHOOK@\d+\] Please sign this message .* owner of the address addr_test1\S+, and to have its events delivered to https:\/\/1\.1\.1\.1\/hook\?x=1\.$/,
    );
  });

  it("limits registrations per client to WEBHOOKS_REGISTRATIONS_PER_HOUR, refused ones included: 429 with Retry-After", async () => {
    for (let i = 0; i < PER_HOUR; i++)
      expect((await register(i % 2 === 0 ? {} : { url: "https://10.0.0.1/x" })).status).to.be.oneOf([201, 400]);
    const over = await register();
    expect(over.status).to.equal(429);
    expect(errorBody(over)).to.include({ error: "WEBHOOK_REGISTRATIONS_RATE_LIMITED", limit: PER_HOUR });
    expect(Number(over.headers.get("retry-after"))).to.be.within(3000, 3600);
    // another client is not counted with this one
    ip = "198.51.100.250";
    expect((await register()).status).to.equal(201);
  });
});
