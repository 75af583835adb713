/**
 * Moleculer's NATS transporter with the action in each request's subject, so nats-server can allow or refuse a
 * request by what it asks for (deploy/k8s/nats.yaml gives each service a NATS user with such permissions).
 *
 * With the broker's own balancer (moleculer.config.ts keeps it: a request names its node, which the lost-request
 * middleware and Moleculer's request streams rely on), Moleculer 0.15 publishes a request on
 * `MOL-<namespace>.REQ.<nodeID>`: a subject that names the node only, so a client allowed to call one action of a
 * node could call every action of it. Here a request goes to `MOL-<namespace>.REQ.<nodeID>.<action>` (every chunk
 * of a request stream too: each is a request packet naming the action) and each node subscribes to
 * `MOL-<namespace>.REQ.<nodeID>.>`. Every other packet (responses, events, discovery, heartbeats, pings) keeps
 * Moleculer's subject. All nodes of a mesh must use this transporter: a request to a node on Moleculer's plain NATS
 * transporter would reach no subscriber.
 */
import { Transporters, type Packet } from "moleculer";

/** Moleculer's packet type of a request (`P.PACKET_REQUEST` in moleculer/src/packets.js). */
const PACKET_REQUEST: Packet.PacketType = "REQ";

export class ActionSubjectNatsTransporter extends Transporters.NATS {
  /** The subject of a request to `nodeID` for `action`. */
  requestSubject(nodeID: string, action: string): string {
    return `${this.getTopicName(PACKET_REQUEST, nodeID)}.${action}`;
  }

  override subscribe(cmd: string, nodeID?: string): Promise<void> {
    // every action of this node: `MOL-<ns>.REQ.<nodeID>.>`
    return super.subscribe(cmd, cmd === PACKET_REQUEST && nodeID !== undefined ? `${nodeID}.>` : nodeID);
  }

  override publish(packet: Packet.Packet<Packet.PacketPayload>): Promise<void> {
    const action = (packet.payload as { action?: unknown }).action;
    if (packet.type !== PACKET_REQUEST || typeof packet.target !== "string" || typeof action !== "string") return super.publish(packet);
    return this.send(this.requestSubject(packet.target, action), this.serialize(packet));
  }
}
