/**
 * Who may hand hashes to the aggregated calendar (docs/merkle-batches.md#aggregated-calendar): anyone on the devnet
 * and the testnets; on mainnet, where every round costs the service real ADA, only callers presenting the API key
 * (ADMIN_API_KEY, header X-Api-Key); nobody when BATCH_CALENDAR_ENABLED=false.
 */
import type { Network } from "../config/config";
import { DomainError } from "../domain/errors";

/** @throws DomainError CALENDAR_DISABLED, UNAUTHORIZED */
export function checkCalendarAccess(opts: { enabled: boolean; network: Network }, apiKeyValid: boolean): void {
  if (!opts.enabled)
    throw new DomainError("CALENDAR_DISABLED", "The aggregated calendar is disabled on this service (BATCH_CALENDAR_ENABLED=false).");
  if (opts.network === "mainnet" && !apiKeyValid)
    throw new DomainError("UNAUTHORIZED", "On mainnet the calendar anchors only for callers presenting the API key (header X-Api-Key).");
}
