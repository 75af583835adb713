/** The library scripts: deployment, upgrade and removal (built for the service wallet), and their state. */
import { BUILD_FAILURE_CODES } from "../http-status";
import { TX_HASH, type RouteSpec } from "./route-spec";

/** A library build fails as any build does, or for want of a configured deployment. */
const LIBRARY_BUILD_ERRORS = [...BUILD_FAILURE_CODES, "NOT_CONFIGURED"];

export const LIBRARY_ROUTES = [
  {
    method: "POST",
    path: "/library/deploy/proxy",
    requiresProtocol: true,
    action: "library.deployProxy",
    tag: "library",
    summary: "Build the deployment of the proxy script (signed by the service wallet)",
    request: "none",
    response: "BuildTransactionResponse",
    responseSchema: "BuildTransactionResponse",
    errors: LIBRARY_BUILD_ERRORS,
    failureSchema: "BuildFailure",
    implemented: true,
  },
  {
    method: "POST",
    path: "/library/upgrade/proxy",
    requiresProtocol: true,
    action: "library.upgradeProxy",
    tag: "library",
    summary: "Build an upgrade of the proxy script",
    request: "a JSON string (or raw text): the new script reference",
    response: "BuildTransactionResponse",
    wholeBodyAs: "scriptReference",
    query: [
      {
        name: "bootstrapAdministrators",
        required: false,
        description: "comma-separated key hashes the new state script is applied with (default: the deployment's)",
      },
      { name: "force", required: false, description: "true: upgrade to a script that is not a state script for this proxy" },
    ],
    responseSchema: "BuildTransactionResponse",
    errors: LIBRARY_BUILD_ERRORS,
    failureSchema: "BuildFailure",
    implemented: true,
  },
  {
    method: "GET",
    path: "/library/undeploy/{transactionHash}/{outputIndex}",
    requiresProtocol: true,
    action: "library.undeploy",
    tag: "library",
    summary: "Build a transaction removing one library script UTxO",
    response: "BuildTransactionResponse",
    pathPatterns: { transactionHash: TX_HASH, outputIndex: "^\\d+$" },
    responseSchema: "BuildTransactionResponse",
    errors: LIBRARY_BUILD_ERRORS,
    failureSchema: "BuildFailure",
    implemented: true,
  },
  {
    method: "GET",
    path: "/library/undeploy/unused",
    requiresProtocol: true,
    action: "library.undeployUnused",
    tag: "library",
    summary: "Build a transaction reclaiming every unused library script UTxO",
    response: "BuildTransactionResponse",
    responseSchema: "BuildTransactionResponse",
    errors: LIBRARY_BUILD_ERRORS,
    failureSchema: "BuildFailure",
    implemented: true,
  },
  {
    method: "GET",
    path: "/library/deployments",
    action: "library.deployments",
    tag: "library",
    summary: "Current on-chain deployment state of the library scripts",
    response: "LibraryDeploymentResponse",
    responseSchema: "LibraryDeploymentResponse",
    errors: ["NOT_CONFIGURED"],
    implemented: true,
  },
] as const satisfies readonly RouteSpec[];
