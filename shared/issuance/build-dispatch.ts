/**
 * Entry points of the tx-builder: a request body in, a BuildTransactionResponse out — always, whatever the body
 * (refusals and unexpected failures become a status code and message, never a thrown error).
 */
import { buildUndeploy, buildUpgrade, parseUpgradeOptions, parseUpgradeTarget } from "./library-admin";
import { buildBurnBootstrap, buildMintBootstrap } from "./bootstrap-admin";
import {
  BuildRefusal,
  isBuildRefusal,
  refusalResponse,
  successResponse,
  type BuildTransactionResponse,
  type BuildType,
} from "./build-outcome";
import { parseBuildRequest, parseBuildType } from "./build-request";
import { buildBurnStates } from "./burn-states";
import { buildCertificateTransaction } from "./certificate-issuance";
import { StateId } from "../domain/hex";
import type { StateInfo } from "../records/protocol-records";
import type { IssuanceEnv } from "./issuance-env";
import { buildPrepareCollateral } from "./prepare-collateral";
import { buildDeploy, buildInit } from "./protocol-setup";

type Body = Record<string, unknown>;

async function answer(type: BuildType | null, run: () => Promise<BuildTransactionResponse>): Promise<BuildTransactionResponse> {
  try {
    return await run();
  } catch (err) {
    if (isBuildRefusal(err)) return refusalResponse(type, err);
    const message = err instanceof Error ? err.message : String(err);
    return refusalResponse(type, new BuildRefusal("UNKNOWN_ERROR", `The transaction could not be built: ${message}`));
  }
}

export async function handleBuild(env: IssuanceEnv, body: Body): Promise<BuildTransactionResponse> {
  let type: BuildType | null = null;
  try {
    type = parseBuildType(body["type"]);
  } catch {
    // reported by parseBuildRequest below, with type null
  }
  return answer(type, async () => {
    const req = parseBuildRequest(body);
    switch (req.type) {
      case "default":
      case "custom": {
        const r = await buildCertificateTransaction(env, req);
        return successResponse(
          req.type,
          r.cborHex,
          r.kind === "fork" ? `New state ${r.stateId} forked; sign and submit.` : `State ${r.stateId} updated; sign and submit.`,
        );
      }
      case "bootstrap":
        return successResponse("bootstrap", (await buildMintBootstrap(env, req.address, req.bootstrapDatum)).cborHex);
      case "burn_bootstrap":
        return successResponse("burn_bootstrap", (await buildBurnBootstrap(env, req.address, req.bootstrapDatum?.name)).cborHex);
      case "burn_state":
        return successResponse("burn_state", (await buildBurnStates(env, req.address, req.stateId ? [req.stateId] : [])).cborHex);
      case "init": {
        const r = await buildInit(env, req.address);
        return { ...successResponse("init", r.cborHex), proxyTxHash: r.proxyTxHash, proxyOutputIndex: r.proxyOutputIndex };
      }
      case "deploy":
        return successResponse("deploy", (await buildDeploy(env, req.address)).cborHex);
    }
  });
}

export function handlePrepareCollateral(env: IssuanceEnv, body: Body): Promise<BuildTransactionResponse> {
  const address = body["senderAddress"] ?? body["sender_address"] ?? body["address"];
  return answer(null, async () =>
    successResponse(
      null,
      (await buildPrepareCollateral(env, typeof address === "string" ? address : undefined)).cborHex,
      "Collateral transaction built; sign, submit and wait for its confirmation.",
    ),
  );
}

/** One transaction burning the given states of their owner (the user actions INVALIDATE_STATE and OPT_OUT). */
export function handleBurnStates(env: IssuanceEnv, address: string, states: readonly StateInfo[]): Promise<BuildTransactionResponse> {
  return answer("burn_state", async () =>
    successResponse(
      "burn_state",
      (
        await buildBurnStates(
          env,
          address,
          states.map((s) => StateId(s.stateId)),
          states,
        )
      ).cborHex,
    ),
  );
}

/** `POST /library/upgrade/proxy`: the body names the new state script (library-admin.ts). */
export function handleUpgrade(
  env: IssuanceEnv,
  address: string,
  scriptReference: unknown,
  options: { bootstrapAdministrators?: unknown; force?: unknown } = {},
): Promise<BuildTransactionResponse> {
  return answer("deploy", async () =>
    successResponse(
      "deploy",
      (await buildUpgrade(env, address, parseUpgradeTarget(scriptReference), parseUpgradeOptions(options))).cborHex,
      "Upgrade transaction built; sign it with the service wallet and submit it.",
    ),
  );
}

/** `GET /library/undeploy/...`: one library entry, or every unused one (no transaction when there is none). */
export function handleUndeploy(
  env: IssuanceEnv,
  address: string,
  which: { outRef: { txHash: string; index: number } } | "unused",
): Promise<BuildTransactionResponse> {
  return answer(null, async () => {
    const built = await buildUndeploy(env, address, which);
    if (!built) return { unsignedTransaction: null, type: null, status: { code: "SUCCESS", message: "No unused contracts to undeploy." } };
    return successResponse(null, built.cborHex, "Undeploy transaction built; sign it with the service wallet and submit it.");
  });
}
