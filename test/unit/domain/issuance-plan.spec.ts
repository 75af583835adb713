import { expect } from "chai";
import { planIssuance, type BootstrapTerms, type StateTerms } from "../../../shared/domain/issuance-plan";

const ADA = 1_000_000n;
const me = "11".repeat(28);
const other = "22".repeat(28);
const NOW = 1_700_000_000_000;
const FUTURE = BigInt(NOW + 86_400_000);

function aBootstrap(overrides: Partial<BootstrapTerms> = {}): BootstrapTerms {
  return {
    name: "default",
    allowedCredentials: [],
    fee: 2n * ADA,
    feeInterval: 3n,
    feeReceivers: ["aa".repeat(28)],
    ttl: FUTURE,
    transactionLimit: 15n,
    batchSize: 10n,
    ...overrides,
  };
}

function aState(overrides: Partial<StateTerms> = {}): StateTerms {
  return {
    id: "ab".repeat(32),
    owner: me,
    fee: 2n * ADA,
    feeInterval: 3n,
    feeReceivers: ["aa".repeat(28)],
    countdown: 14n,
    ttl: FUTURE,
    batchSize: 10n,
    bootstrapName: "default",
    ...overrides,
  };
}

describe("issuance plan", () => {
  it("forks from a bootstrap when the caller has no usable state", () => {
    const plan = planIssuance({ credential: me, states: [], bootstraps: [aBootstrap()], now: NOW, batch: 1 });
    expect(plan).to.deep.include({ kind: "fork" });
  });

  it("reuses a state with countdown left and no fee due", () => {
    const state = aState({ countdown: 14n });
    const plan = planIssuance({ credential: me, states: [state], bootstraps: [aBootstrap()], now: NOW, batch: 1 });
    expect(plan).to.deep.equal({ kind: "update", state });
  });

  it("keeps updating (and pays) when a fee is due and no bootstrap is strictly cheaper", () => {
    const state = aState({ countdown: 12n });
    const plan = planIssuance({ credential: me, states: [state], bootstraps: [aBootstrap()], now: NOW, batch: 1 });
    expect(plan).to.deep.equal({ kind: "update", state });
  });

  it("forks from a strictly cheaper bootstrap when the state owes a fee", () => {
    const cheap = aBootstrap({ name: "cheap", fee: 1n * ADA, feeInterval: 10n });
    const plan = planIssuance({
      credential: me,
      states: [aState({ countdown: 12n })],
      bootstraps: [aBootstrap(), cheap],
      now: NOW,
      batch: 1,
    });
    expect(plan).to.deep.equal({ kind: "fork", bootstrap: cheap });
  });

  it("chooses the cheapest bootstrap the caller is whitelisted for", () => {
    const privateCheap = aBootstrap({ name: "partner", fee: 0n, allowedCredentials: [other] });
    const mine = aBootstrap({ name: "mine", fee: ADA, feeInterval: 5n, allowedCredentials: [me] });
    const plan = planIssuance({ credential: me, states: [], bootstraps: [aBootstrap(), privateCheap, mine], now: NOW, batch: 1 });
    expect(plan).to.deep.equal({ kind: "fork", bootstrap: mine });
  });

  it("forks a new state when the caller's state is exhausted or expired", () => {
    const states = [aState({ countdown: 0n }), aState({ id: "cd".repeat(32), ttl: BigInt(NOW) })];
    const plan = planIssuance({ credential: me, states, bootstraps: [aBootstrap()], now: NOW, batch: 1 });
    expect(plan.kind).to.equal("fork");
  });

  it("skips states and bootstraps whose batch size is smaller than the request", () => {
    const plan = planIssuance({
      credential: me,
      states: [aState({ batchSize: 2n })],
      bootstraps: [aBootstrap({ batchSize: 2n })],
      now: NOW,
      batch: 3,
    });
    expect(plan.kind).to.equal("none");
  });
});
