/**
 * The single import point of cardano-serialization-lib (CSL) in the project.
 * Everything outside shared/csl and shared/wallet works with hex strings, bigint and plain objects.
 * @internal
 */
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";

export { CSL };
