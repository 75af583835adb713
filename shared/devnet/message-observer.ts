// A process-wide hook on every message the devnet servers send, so a test harness can schema-check the wire traffic
// (test/support/ogmios-conformance.ts) without the server knowing about schemas.

/** Receives the exact JSON text sent and the method it answers (undefined for replies to unparseable requests). */
export type OutgoingMessageObserver = (text: string, method: string | undefined) => void;

let observer: OutgoingMessageObserver | undefined;

/** Registers (or, with undefined, removes) the observer for all devnet servers in this process. */
export function setOutgoingMessageObserver(fn: OutgoingMessageObserver | undefined): void {
  observer = fn;
}

/** @internal Called by the server for every outgoing message. */
export function observeOutgoing(text: string, method: string | undefined): void {
  observer?.(text, method);
}
