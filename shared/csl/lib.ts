/**
 * The import point of cardano-serialization-lib (CSL) for the facade. Outside shared/csl only shared/wallet (keys)
 * and the devnet's ledger emulation use CSL; everything else works with hex strings, bigint and plain objects.
 * @internal
 */
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";

export { CSL };
