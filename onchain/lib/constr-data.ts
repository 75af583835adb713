/**
 * A view of any `Constr i [fields]` Data, to read `raw.index` and `raw.fields` without assuming a layout
 * (reading the index through `raw` compiles to a bare fstPair; `punConstrData(..).fst` miscompiles in 0.9.0).
 */
import { pstruct } from "@harmoniclabs/plu-ts";

export const PAnyConstr = pstruct({ AnyConstr: {} });
