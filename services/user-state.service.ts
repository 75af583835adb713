/**
 * user-state: the two-step signed user actions (`/user/...`, decisions.md "User actions") and the test-funds faucet
 * (`/faucet/...`, devnet and testnets only). Step 1 answers a challenge signed with the service's key; step 2
 * verifies the wallet's CIP-30 signature (shared/user-actions/signed-challenge.ts) and executes: USER_INFO from the
 * indexer, INVALIDATE_STATE / OPT_OUT as unsigned burn transactions built by `tx-builder.burnStates`.
 * Every answer carries `status` ("200 OK", "400 BAD_REQUEST", …); failures also `error` (a code) and `message`.
 */
import type { Context, ServiceSchema } from "moleculer";
import { Errors } from "moleculer";
import { createChainClient, type ChainClient } from "../shared/chain";
import { DomainError } from "../shared/domain/errors";
import { httpStatusOfBuild, type BuildStatusCode } from "../shared/domain/build-status";
import { FaucetDispenser } from "../shared/faucet/faucet-dispenser";
import { faucetWallet } from "../shared/faucet/faucet-wallet";
import type { BootstrapInfo, StateInfo } from "../shared/indexer/protocol-state";
import { networkIdOf } from "../shared/indexer/protocol-view";
import { defineRouteActions } from "../shared/mesh/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import {
  FAUCET_ACTION,
  parseActionRequest,
  parseExecuteRequest,
  parseFaucetClaim,
  parseFaucetRequest,
  statusString,
  walletCredentialOf,
  type Body,
} from "../shared/user-actions/action-request";
import { ReplayGuard } from "../shared/user-actions/replay-guard";
import { ServiceSigningKey } from "../shared/user-actions/service-signing-key";
import { issueChallenge, verifySignedChallenge } from "../shared/user-actions/signed-challenge";
import { hasBootstrapAccess, userState } from "../shared/user-actions/user-state-view";

type Meta = { $statusCode?: number };
type Ctx = Context<Body, Meta>;

interface BuildTransactionResponse {
  unsignedTransaction: string | null;
  type: string | null;
  status: { code: BuildStatusCode; message: string | null };
  [extra: string]: unknown;
}

/** Sets the HTTP status and returns the body with the spec's `status` string. */
function answer<T extends Record<string, unknown>>(ctx: Ctx, code: number, body: T): T & { status: string } {
  if (code !== 200) ctx.meta.$statusCode = code;
  return { ...body, status: statusString(code) };
}

/** Every failure in the route's own shape, with `status`, `error` (a code) and `message`. */
function failure(ctx: Ctx, err: unknown, base: Record<string, unknown>) {
  if (err instanceof DomainError) {
    const status = typeof err.data["status"] === "number" ? err.data["status"] : 400;
    const extra = typeof err.data["retryAfterSeconds"] === "number" ? { retryAfterSeconds: err.data["retryAfterSeconds"] } : {};
    return answer(ctx, status, { ...base, error: err.type, message: err.message, ...extra });
  }
  const e = err as { type?: unknown; code?: unknown; message?: unknown };
  if (e.type === "SERVICE_NOT_FOUND" || e.type === "SERVICE_NOT_AVAILABLE" || e.type === "REQUEST_TIMEOUT") {
    return answer(ctx, 503, { ...base, error: "SERVICE_UNAVAILABLE", message: "A service this action needs (the indexer) is not available right now; retry shortly." });
  }
  if (typeof e.code === "number" && e.code >= 400 && e.code < 500 && typeof e.type === "string") {
    return answer(ctx, e.code, { ...base, error: e.type, message: String(e.message) });
  }
  ctx.service?.logger.error("user action failed", { type: e.type, message: e.message });
  return answer(ctx, 500, { ...base, error: "INTERNAL_ERROR", message: "Internal server error." });
}

export default function createUserStateService(deps: ServiceDeps): ServiceSchema {
  const networkId = networkIdOf(deps.config.network);
  let key: ServiceSigningKey | undefined;
  let replay: ReplayGuard | undefined;
  let faucet: FaucetDispenser | null | undefined;
  let chainClient: ChainClient | undefined;

  /** Keys and files are touched on first use only, so loading the service has no side effects. */
  const signingKey = (): ServiceSigningKey => (key ??= ServiceSigningKey.load({ mnemonic: deps.config.userActionSigningMnemonic, dataDir: deps.config.dataDir }));
  const replayGuard = async (): Promise<ReplayGuard> => (replay ??= await ReplayGuard.open(await deps.resources.store()));
  const dispenser = async (): Promise<FaucetDispenser> => {
    if (faucet === undefined) {
      const wallet = faucetWallet(deps.config);
      faucet =
        wallet === null
          ? null
          : FaucetDispenser.open(await deps.resources.store(), {
              wallet,
              chain: async () => (chainClient ??= createChainClient({ url: (await deps.resources.chain()).ogmiosUrl })),
              utxoCount: deps.config.faucet.utxoCount,
              utxoLovelace: BigInt(deps.config.faucet.utxoLovelace),
              cooldownMs: deps.config.faucet.cooldownMs,
            });
    }
    if (faucet === null) throw new DomainError("FAUCET_NOT_CONFIGURED", "The faucet has no wallet: set FAUCET_MNEMONIC.", { status: 503 });
    return faucet;
  };
  const faucetEnabled = () => {
    if (!deps.config.faucet.enabled) {
      throw new DomainError("FAUCET_DISABLED", deps.config.network === "mainnet" ? "There is no faucet on mainnet." : "The faucet is disabled on this instance (FAUCET_ENABLED=false).", { status: 403 });
    }
  };

  async function userInfo(ctx: Ctx, credential: string) {
    const [states, bootstraps] = await Promise.all([
      ctx.call<StateInfo[], { owner: string }>("indexer.states", { owner: credential }),
      ctx.call<BootstrapInfo[], Record<string, never>>("indexer.bootstraps", {}),
    ]);
    return userState(credential, states, bootstraps, networkId);
  }

  /** The unsigned burn of `stateIds`, from the tx-builder. */
  async function burn(ctx: Ctx, address: string, stateIds: string[]) {
    let built: BuildTransactionResponse;
    try {
      built = await ctx.call<BuildTransactionResponse, { address: string; stateIds: string[] }>("tx-builder.burnStates", { address, stateIds });
    } catch (err) {
      const e = err as { type?: unknown; code?: unknown; message?: unknown };
      if (e.type === "SERVICE_NOT_FOUND" || e.type === "SERVICE_NOT_AVAILABLE" || e.type === "ACTION_NOT_FOUND") {
        throw new DomainError("TX_BUILDER_UNAVAILABLE", "The transaction builder (tx-builder.burnStates) is not available right now.", { status: 503 });
      }
      if (typeof e.code === "number" && e.code >= 400 && e.code < 500) throw new DomainError(typeof e.type === "string" ? e.type : "BAD_REQUEST", String(e.message), { status: e.code });
      throw err;
    }
    const http = httpStatusOfBuild(built.status.code);
    if (http !== 200) {
      throw new DomainError(built.status.code, built.status.message ?? "The burn transaction could not be built.", { status: http });
    }
    return built;
  }

  return {
    name: "user-state",
    actions: defineRouteActions("user-state", {
      requestAction: {
        async handler(ctx: Ctx) {
          const base = { address: ctx.params["address"] ?? null, action: ctx.params["action"] ?? null, signature: null, timestamp: null, message: null, error: null };
          try {
            const req = parseActionRequest(ctx.params);
            walletCredentialOf(req.address, networkId);
            const c = issueChallenge(signingKey(), { address: req.address, action: req.action, ...(req.stateId ? { stateId: req.stateId } : {}), now: deps.now() });
            return answer(ctx, 200, { ...base, ...c, error: null });
          } catch (err) {
            return failure(ctx, err, base);
          }
        },
      },
      executeAction: {
        async handler(ctx: Ctx) {
          const base = { state: null, unsignedTransaction: null, error: null };
          try {
            const req = parseExecuteRequest(ctx.params);
            const credential = walletCredentialOf(req.address, networkId);
            await verifySignedChallenge(req, { key: signingKey(), replay: await replayGuard(), now: deps.now() });
            if (req.action === "USER_INFO") return answer(ctx, 200, { ...base, state: await userInfo(ctx, credential) });

            const states = await ctx.call<StateInfo[], { owner: string }>("indexer.states", { owner: credential });
            let ids: string[];
            if (req.action === "INVALIDATE_STATE") {
              const target = states.find((s) => s.stateId === req.stateId);
              if (!target) throw new DomainError("STATE_NOT_FOUND", "State with the provided ID does not exist (or is not yours).", { status: 404 });
              if (target.keepAsOracle) throw new DomainError("STATE_IS_ORACLE", "This state is kept as an oracle and cannot be burned.", { status: 400 });
              ids = [target.stateId];
            } else {
              ids = states.filter((s) => !s.keepAsOracle).map((s) => s.stateId);
              if (ids.length === 0) throw new DomainError("NO_ACTIVE_STATE", "The address has no active state to opt out of.", { status: 404 });
            }
            const built = await burn(ctx, req.address, ids);
            const { unsignedTransaction, type, status, ...rest } = built;
            return answer(ctx, 200, { ...base, ...rest, unsignedTransaction, type, stateIds: ids, buildStatus: status });
          } catch (err) {
            return failure(ctx, err, base);
          }
        },
      },
      bootstrapAccess: {
        async handler(ctx: Ctx) {
          const address = ctx.params["address"];
          const tokenName = ctx.params["tokenName"] ?? ctx.params["token_name"];
          if (typeof address !== "string" || address === "" || typeof tokenName !== "string" || tokenName === "" || tokenName.length > 128) {
            throw new Errors.MoleculerClientError("Query parameters 'address' and 'tokenName' are required.", 400, "MISSING_PARAMETER");
          }
          let credential: string;
          try {
            credential = walletCredentialOf(address, networkId);
          } catch (err) {
            throw new Errors.MoleculerClientError((err as Error).message, 400, "INVALID_ADDRESS");
          }
          const [states, bootstraps] = await Promise.all([
            ctx.call<StateInfo[], { owner: string }>("indexer.states", { owner: credential }),
            ctx.call<BootstrapInfo[], Record<string, never>>("indexer.bootstraps", {}),
          ]);
          return hasBootstrapAccess(credential, tokenName, states, bootstraps);
        },
      },
      faucetRequest: {
        async handler(ctx: Ctx) {
          const base = { address: ctx.params["address"] ?? null, signature: null, timestamp: null, message: null, error: null };
          try {
            faucetEnabled();
            const { address } = parseFaucetRequest(ctx.params);
            const credential = walletCredentialOf(address, networkId);
            const left = await (await dispenser()).cooldownLeft(credential, deps.now());
            if (left > 0) throw new DomainError("FAUCET_COOLDOWN", `This wallet was funded recently; try again in ${Math.ceil(left / 1000)} s.`, { status: 429, retryAfterSeconds: Math.ceil(left / 1000) });
            const c = issueChallenge(signingKey(), { address, action: FAUCET_ACTION, now: deps.now() });
            return answer(ctx, 200, { ...base, address, message: c.message, signature: c.signature, timestamp: c.timestamp });
          } catch (err) {
            return failure(ctx, err, base);
          }
        },
      },
      faucetClaim: {
        async handler(ctx: Ctx) {
          const base = { txHash: null, transactionHash: null, error: null };
          try {
            faucetEnabled();
            const req = parseFaucetClaim(ctx.params);
            const credential = walletCredentialOf(req.address, networkId);
            const faucetNow = await dispenser();
            // Cooldown before the challenge is consumed, so a refused claim can be retried with the same signature.
            const left = await faucetNow.cooldownLeft(credential, deps.now());
            if (left > 0) throw new DomainError("FAUCET_COOLDOWN", `This wallet was funded recently; try again in ${Math.ceil(left / 1000)} s.`, { status: 429, retryAfterSeconds: Math.ceil(left / 1000) });
            await verifySignedChallenge(req, { key: signingKey(), replay: await replayGuard(), now: deps.now() });
            const paid = await faucetNow.dispense(req.address, credential, deps.now());
            return answer(ctx, 200, { ...base, txHash: paid.txHash, transactionHash: paid.txHash, lovelace: paid.lovelace.toString() });
          } catch (err) {
            return failure(ctx, err, base);
          }
        },
      },
    }),
    async stopped() {
      await chainClient?.close();
    },
  };
}

