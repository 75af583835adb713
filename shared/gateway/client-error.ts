/**
 * Answers requests that Node's HTTP parser rejects before they reach the gateway (broken request line,
 * headers over 16 KiB, header timeout) with the same JSON error shape, instead of Node's empty-bodied default.
 */
import { STATUS_CODES, type Server } from "node:http";
import type { Duplex } from "node:stream";

const REPLIES: Record<string, { status: number; error: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, error: "HEADERS_TOO_LARGE", message: "Request headers are too large." },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, error: "REQUEST_TIMEOUT", message: "The request took too long to arrive." },
};
const DEFAULT_REPLY = { status: 400, error: "BAD_REQUEST", message: "The request is not valid HTTP." };

export function answerClientErrorsWithJson(server: Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const reply = REPLIES[err.code ?? ""] ?? DEFAULT_REPLY;
    const body = JSON.stringify({ error: reply.error, message: reply.message });
    socket.end(
      `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status]}\r\n` +
        "Content-Type: application/json; charset=utf-8\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        "Connection: close\r\n\r\n" +
        body,
    );
  });
}
