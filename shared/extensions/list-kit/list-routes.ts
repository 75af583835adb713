/** The route every list extension has beside its build and status: the replacement of a build that lost its list entry. */
import { TX_HASH_PATTERN } from "../extension-module";

/** `GET /extension/<id>/pending/{txHash}`, served by `<service>.pending` (shared/mesh/list-extension-service.ts). */
export function listPendingRoute<Service extends string, Id extends string>(service: Service, id: Id, label: string) {
  return {
    method: "GET",
    path: `/extension/${id}/pending/{txHash}`,
    action: `${service}.pending`,
    tag: id,
    summary: `The replacement of a ${label} transaction that lost its list entry to another transaction`,
    response: "{ rebuiltTransaction }: the unsigned replacement to sign and submit",
    responseSchema: "FractionizedPending",
    errors: ["NOT_FOUND"],
    statuses: { 404: "nothing was rebuilt for that transaction (it is unknown, too old, or has not lost its entry)" },
    pathPatterns: { txHash: TX_HASH_PATTERN },
    implemented: true,
  } as const;
}
