/**
 * Requests that can no longer be answered are rejected at once instead of waiting for the request timeout.
 *
 * Two faults lose requests silently on a Moleculer mesh over NATS:
 * - a node killed (SIGKILL, OOM) and restarted under the same node ID — a container restarted in place keeps its
 *   hostname and pid 1, so `NODE_ID`'s default `<hostname>-<pid>` is the same — announces a new instance. What this
 *   broker sent to the old instance will never be answered; Moleculer only rejects pending requests of a node it
 *   sees disconnect, and a node that comes back before its heartbeat times out is never seen disconnecting;
 * - the NATS connection broke (the server restarted): requests and replies published meanwhile are gone.
 * Without this, each such call waits for REQUEST_TIMEOUT_MS and the gateway answers 504 (30 s by default). With it
 * the calls fail with Moleculer's `RequestRejectedError`, which the retry policy (moleculer.config.ts) sends again
 * — to the new instance or another replica. A retried call may run twice; every action that changes state is safe
 * to repeat (a build hands out inputs again, a resubmitted transaction is recognised and answers its hash again, a
 * repeated user action is refused by the replay guard of its one-time challenge, a repeated faucet claim by the
 * claimer's cooldown).
 */
import type { Middleware, ServiceBroker } from "moleculer";

interface NodeEvent {
  node: { id: string; instanceID?: string; local?: boolean };
}

interface TransitLike {
  removePendingRequestByNodeID(nodeID: string): void;
  pendingRequests: Map<string, { nodeID?: string }>;
  discoverer?: { sendLocalNodeInfo(): Promise<unknown>; discoverAllNodes(): Promise<unknown> };
}

interface NatsClientLike {
  status(): AsyncIterable<{ type: string }>;
}

export function createLostRequestMiddleware(): Middleware {
  const instances = new Map<string, string>();
  /** nodes with requests pending across a NATS reconnection: rejected once the node is heard from again */
  const suspects = new Set<string>();
  return {
    name: "LostRequests",
    created(broker: ServiceBroker) {
      const transit = () => (broker as unknown as { transit?: TransitLike }).transit;
      const seen = ({ node }: NodeEvent) => {
        if (node.local || node.instanceID === undefined) return;
        const before = instances.get(node.id);
        instances.set(node.id, node.instanceID);
        if (before !== undefined && before !== node.instanceID) {
          broker.logger.warn(`Node '${node.id}' restarted (new instance): its pending requests are rejected and retried.`);
          suspects.delete(node.id);
          transit()?.removePendingRequestByNodeID(node.id);
        } else if (suspects.delete(node.id)) {
          broker.logger.warn(
            `Node '${node.id}' is reachable again after a NATS reconnection: its pending requests are rejected and retried.`,
          );
          transit()?.removePendingRequestByNodeID(node.id);
        }
      };
      broker.localBus.on("$node.connected", seen);
      broker.localBus.on("$node.updated", seen);
    },
    async started(broker: ServiceBroker) {
      // Moleculer's NATS transporter does not report reconnections; the NATS client's status stream does. After
      // one, this node announces itself and asks every node to do so: whichever side reconnected last, the nodes
      // hear from each other once both are back, and only then are the lost requests sent again.
      const transit = (broker as unknown as { transit?: TransitLike & { tx?: { client?: NatsClientLike | null } } }).transit;
      const client = transit?.tx?.client;
      if (!transit || !client || typeof client.status !== "function") return;
      void (async () => {
        for await (const s of client.status()) {
          if (s.type !== "reconnect") continue;
          for (const r of transit.pendingRequests.values()) if (r.nodeID && r.nodeID !== broker.nodeID) suspects.add(r.nodeID);
          await transit.discoverer?.sendLocalNodeInfo();
          await transit.discoverer?.discoverAllNodes();
        }
      })().catch((err: unknown) => broker.logger.warn("watching the NATS connection failed", { error: String(err) }));
    },
  };
}
