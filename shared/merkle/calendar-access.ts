/**
 * Who may hand hashes to the aggregated calendar (docs/merkle-batches.md#aggregated-calendar): anyone on the devnet
 * and the testnets; on mainnet, where every round costs the service real ADA, only callers presenting one of the
 * calendar's own API keys (BATCH_API_KEYS, header X-Api-Key); nobody when BATCH_CALENDAR_ENABLED=false. Each caller's
 * pending leaves are counted apart: under its key when it presented one, else under its address.
 */
import type { Network } from "../config/config";
import { DomainError } from "../domain/errors";

/** Who submits: the id of the calendar API key presented (never the key), and the client's key. */
export interface CalendarCaller {
  keyId?: string;
  /** the key the gateway counts the caller under (its IPv4 address or IPv6 /64) */
  clientKey: string;
}

/** The key a caller's pending leaves are counted under. */
export function calendarClientOf(caller: CalendarCaller): string {
  return caller.keyId !== undefined ? `key:${caller.keyId}` : `client:${caller.clientKey}`;
}

/** @throws DomainError CALENDAR_DISABLED, UNAUTHORIZED */
export function checkCalendarAccess(opts: { enabled: boolean; network: Network }, caller: CalendarCaller): void {
  if (!opts.enabled)
    throw new DomainError("CALENDAR_DISABLED", "The aggregated calendar is disabled on this service (BATCH_CALENDAR_ENABLED=false).");
  if (opts.network === "mainnet" && caller.keyId === undefined)
    throw new DomainError(
      "UNAUTHORIZED",
      "On mainnet the calendar anchors only for callers presenting one of its API keys (header X-Api-Key).",
    );
}
