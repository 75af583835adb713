/**
 * user-state: the two-step signed user actions (`/user/...`, docs/api.md#user-actions) and the test-funds faucet (`/faucet/...`, devnet and
 * testnets only; each payment announced as `transaction.submitted`, docs/events.md). Step 1 answers a challenge signed with the service's key; step 2 verifies the wallet's CIP-30
 * signature and executes: USER_INFO from the indexer, INVALIDATE_STATE / OPT_OUT as unsigned burn transactions built
 * by `tx-builder.burnStates`. Logic: shared/user-actions, shared/faucet. Every answer carries `status`
 * ("200 OK", "400 BAD_REQUEST", …); failures also `error` and `message`, with the gateway's status for their type.
 */
import type { Context, ServiceSchema } from "moleculer";
import { createChainClient, type ChainClient } from "../shared/chain";
import { networkIdOfNetwork } from "../shared/config/network";
import { DomainError } from "../shared/domain/errors";
import { FaucetAccess } from "../shared/faucet/faucet-access";
import { InflightRegistry } from "../shared/inflight";
import { transactionSubmitted } from "../shared/events/service-events";
import { EventAppender } from "../shared/mesh/event-appender";
import { toHttpErrorReply } from "../shared/gateway/error-mapping";
import { httpStatusOfType } from "../shared/gateway/http-status";
import { defineRouteActions } from "../shared/gateway/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import type { BootstrapInfo, StateInfo } from "../shared/records/protocol-records";
import {
  FAUCET_ACTION,
  parseActionRequest,
  parseExecuteRequest,
  parseFaucetClaim,
  parseFaucetRequest,
  walletCredentialOf,
  type Body,
} from "../shared/user-actions/action-request";
import { failureBody, successBody } from "../shared/user-actions/action-response";
import { ReplayGuard } from "../shared/user-actions/replay-guard";
import { ServiceSigningKey } from "../shared/user-actions/service-signing-key";
import { issueChallenge, verifySignedChallenge } from "../shared/user-actions/signed-challenge";
import { statesToBurn } from "../shared/user-actions/states-to-burn";
import { hasBootstrapAccess, userState } from "../shared/user-actions/user-state-view";

/** A request field echoed in the answer: only a short string, never whatever (unbounded) the caller sent. */
const echoed = (v: unknown): string | null => (typeof v === "string" && v.length <= 200 ? v : null);

type Ctx = Context<Body, { $statusCode?: number; clientIp?: string; clientKey?: string }>;

interface BuildTransactionResponse {
  unsignedTransaction: string | null;
  type: string | null;
  status: { code: string; message: string | null };
  [extra: string]: unknown;
}

export default function createUserStateService(deps: ServiceDeps): ServiceSchema {
  const networkId = networkIdOfNetwork(deps.config.network);
  let key: ServiceSigningKey | undefined;
  let replay: ReplayGuard | undefined;
  let chainClient: ChainClient | undefined;

  /** Keys and files are touched on first use only, so loading the service has no side effects. */
  const signingKey = (): ServiceSigningKey =>
    (key ??= ServiceSigningKey.load({ mnemonic: deps.config.userActionSigningMnemonic, dataDir: deps.config.dataDir }));
  const replayGuard = async (): Promise<ReplayGuard> => (replay ??= await ReplayGuard.open(await deps.resources.store()));
  let inflight: Promise<InflightRegistry> | undefined;
  let events: EventAppender | undefined;
  const faucet = new FaucetAccess(deps.config, {
    announce: (sent) => events?.append([transactionSubmitted(sent.txId, sent.inFlightUntil, deps.now())]),
    store: () => deps.resources.store(),
    inflight: async () => (inflight ??= deps.resources.store().then((store) => InflightRegistry.open(store, deps.now))),
    chain: async () => (chainClient ??= createChainClient({ url: (await deps.resources.chain()).ogmiosUrl })),
  });

  /** Any failure in the route's own shape, with the status the gateway gives its type. */
  const failure = (ctx: Ctx, err: unknown, base: Record<string, unknown>) => {
    const reply = toHttpErrorReply(err);
    if (reply.log === "error")
      ctx.service?.logger.error("user action failed", {
        type: (err as { type?: unknown }).type,
        message: (err as { message?: unknown }).message,
      });
    ctx.meta.$statusCode = reply.status;
    return failureBody(base, reply);
  };

  /** Runs a route in its own body shape: `run`'s body with status 200, or `base` with the failure. */
  const answer = async (ctx: Ctx, base: Record<string, unknown>, run: () => Promise<Record<string, unknown>>) => {
    try {
      return successBody(await run());
    } catch (err) {
      return failure(ctx, err, base);
    }
  };

  const ownStates = (ctx: Ctx, credential: string) => ctx.call<StateInfo[], { owner: string }>("indexer.states", { owner: credential });
  const bootstraps = (ctx: Ctx) => ctx.call<BootstrapInfo[], Record<string, never>>("indexer.bootstraps", {});

  /** The unsigned burn of `states`, from the tx-builder. @throws DomainError with the build's status code as type */
  async function burn(ctx: Ctx, address: string, states: StateInfo[]): Promise<BuildTransactionResponse> {
    const built = await ctx.call<BuildTransactionResponse, { address: string; states: StateInfo[] }>("tx-builder.burnStates", {
      address,
      states,
    });
    if (httpStatusOfType(built.status.code) !== 200)
      throw new DomainError(built.status.code, built.status.message ?? "The burn transaction could not be built.");
    return built;
  }

  return {
    name: "user-state",
    actions: defineRouteActions("user-state", {
      requestAction: {
        async handler(ctx: Ctx) {
          const base = {
            address: echoed(ctx.params["address"]),
            action: echoed(ctx.params["action"]),
            signature: null,
            timestamp: null,
            message: null,
            error: null,
          };
          return answer(ctx, base, async () => {
            const req = parseActionRequest(ctx.params);
            walletCredentialOf(req.address, networkId);
            const c = issueChallenge(signingKey(), {
              address: req.address,
              action: req.action,
              ...(req.stateId ? { stateId: req.stateId } : {}),
              now: deps.now(),
            });
            return { ...base, ...c, error: null };
          });
        },
      },
      executeAction: {
        async handler(ctx: Ctx) {
          const base = { state: null, unsignedTransaction: null, error: null };
          return answer(ctx, base, async () => {
            const req = parseExecuteRequest(ctx.params);
            const credential = walletCredentialOf(req.address, networkId);
            await verifySignedChallenge(req, { key: signingKey(), replay: await replayGuard(), now: deps.now() });
            if (req.action === "USER_INFO") {
              const [states, boots] = await Promise.all([ownStates(ctx, credential), bootstraps(ctx)]);
              return { ...base, state: userState(credential, states, boots, networkId) };
            }
            const chosen = statesToBurn(req.action, req.stateId, await ownStates(ctx, credential));
            const { unsignedTransaction, type, status, ...rest } = await burn(ctx, req.address, chosen);
            return {
              ...base,
              ...rest,
              unsignedTransaction,
              type,
              stateIds: chosen.map((s) => s.stateId),
              buildStatus: status,
            };
          });
        },
      },
      bootstrapAccess: {
        async handler(ctx: Ctx) {
          const address = ctx.params["address"];
          const tokenName = ctx.params["tokenName"] ?? ctx.params["token_name"];
          if (
            typeof address !== "string" ||
            address === "" ||
            typeof tokenName !== "string" ||
            tokenName === "" ||
            tokenName.length > 128
          ) {
            throw new DomainError("MISSING_PARAMETER", "Query parameters 'address' and 'tokenName' are required.");
          }
          const credential = walletCredentialOf(address, networkId);
          const [states, boots] = await Promise.all([ownStates(ctx, credential), bootstraps(ctx)]);
          return hasBootstrapAccess(credential, tokenName, states, boots);
        },
      },
      faucetRequest: {
        async handler(ctx: Ctx) {
          const base = { address: echoed(ctx.params["address"]), signature: null, timestamp: null, message: null, error: null };
          return answer(ctx, base, async () => {
            const dispenser = await faucet.dispenser();
            const { address } = parseFaucetRequest(ctx.params);
            await dispenser.refuseDuringCooldown(walletCredentialOf(address, networkId), deps.now());
            const c = issueChallenge(signingKey(), { address, action: FAUCET_ACTION, now: deps.now() });
            return { ...base, address, message: c.message, signature: c.signature, timestamp: c.timestamp };
          });
        },
      },
      faucetClaim: {
        async handler(ctx: Ctx) {
          const base = { txHash: null, transactionHash: null, error: null };
          return answer(ctx, base, async () => {
            const dispenser = await faucet.dispenser();
            const req = parseFaucetClaim(ctx.params);
            const credential = walletCredentialOf(req.address, networkId);
            // Before the challenge is consumed, so a refused claim can be retried with the same signature.
            await dispenser.refuseDuringCooldown(credential, deps.now());
            await verifySignedChallenge(req, { key: signingKey(), replay: await replayGuard(), now: deps.now() });
            // The gateway puts the client address in meta; a call from inside the mesh counts as one client.
            const paid = await dispenser.dispense(req.address, credential, ctx.meta.clientKey ?? ctx.meta.clientIp ?? "mesh", deps.now());
            return { ...base, txHash: paid.txHash, transactionHash: paid.txHash, lovelace: paid.lovelace.toString() };
          });
        },
      },
    }),
    started() {
      events = new EventAppender(this.broker);
    },
    async stopped() {
      await events?.flush(2_000);
      events?.stop();
      await chainClient?.close();
    },
  };
}
