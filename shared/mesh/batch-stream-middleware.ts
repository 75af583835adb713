/**
 * Scale mode: a Merkle batch (`POST /batch/build`, up to 1,000,000 hashes, 32 MB packed) does not fit one NATS
 * message (the server's max_payload, 1 MB by default). For a REMOTE call of `tx-builder.buildBatch` this packs the
 * hashes (a JSON array of hex, or the bytes of an application/octet-stream body) and sends them as a Moleculer
 * request stream: transit publishes one message per chunk, and tx-builder reads `ctx.stream` with the limits of the
 * byte body (shared/issuance/batch-build.ts). The other params travel in the first message. A batch the gateway
 * can already refuse (empty, too many, not hex) is answered here, as tx-builder would, without crossing the bus.
 * Local calls (one process, no transporter) are left as they are.
 */
import { Readable } from "node:stream";
import type { Context, Middleware } from "moleculer";
import { batchRefusalAnswer, packedHashes } from "../issuance/batch-build";
import { httpStatusOfType } from "../gateway/http-status";

const BATCH_BUILD_ACTION = "tx-builder.buildBatch";

/**
 * Bytes per stream message. The JSON serializer writes a byte as a number and a comma (up to 4 characters), so
 * 128 KiB is at most about 512 KB a message, well under NATS's default 1 MB.
 */
export const BATCH_STREAM_CHUNK_BYTES = 128 * 1024;

/** The packed hashes as a stream of chunks; a new one for each attempt (a retried call sends them again). */
function chunksOf(bytes: Buffer): Readable {
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= bytes.length) {
        this.push(null);
        return;
      }
      this.push(bytes.subarray(offset, (offset += BATCH_STREAM_CHUNK_BYTES)));
    },
  });
}

type CallOptions = { stream?: Readable; $batchBytes?: Buffer };
type Handler = (ctx: Context<Record<string, unknown>, { $statusCode?: number }>) => Promise<unknown>;

export function createBatchStreamMiddleware(): Middleware {
  return {
    name: "BatchStream",
    remoteAction(next: Handler, action: { name?: string }): Handler {
      if (action.name !== BATCH_BUILD_ACTION) return next;
      return function streamBatch(ctx) {
        const options = ctx.options as CallOptions;
        // On a retry the params no longer hold the hashes: the bytes packed for the first attempt are kept here.
        let bytes = options.$batchBytes;
        if (bytes === undefined) {
          try {
            bytes = packedHashes((ctx.params ?? {})["hashes"]);
          } catch (err) {
            const answer = batchRefusalAnswer(err);
            ctx.meta.$statusCode = httpStatusOfType(answer.status.code);
            return Promise.resolve(answer);
          }
          options.$batchBytes = bytes;
        }
        const rest: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(ctx.params ?? {})) if (key !== "hashes") rest[key] = value;
        ctx.params = rest;
        options.stream = chunksOf(bytes);
        return next(ctx);
      };
    },
  } as unknown as Middleware;
}
