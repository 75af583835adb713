/** Where a broker's HTTP servers listen (gateway, probes, metrics): for the start banner and for tests. */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { ServiceBroker } from "moleculer";
import { findHealthMiddleware } from "./health-middleware";

export interface ListenAddresses {
  api: AddressInfo | null;
  health: AddressInfo | null;
  metrics: AddressInfo | null;
}

const addressOf = (server: Server | undefined | null): AddressInfo | null => {
  const a = server?.listening ? server.address() : null;
  return a !== null && typeof a === "object" ? a : null;
};

export function listenAddresses(broker: ServiceBroker): ListenAddresses {
  const gateway = broker.getLocalService("gateway") as unknown as { server?: Server } | undefined;
  const reporters = (broker.metrics as unknown as { reporter?: Array<{ server?: Server }> }).reporter ?? [];
  return {
    api: addressOf(gateway?.server),
    health: findHealthMiddleware(broker)?.address() ?? null,
    metrics: addressOf(reporters.find((r) => r.server !== undefined)?.server),
  };
}

/** `http://host:port` of an address (IPv6 in brackets). */
export function httpUrl(address: AddressInfo, path = ""): string {
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}${path}`;
}
