/** The fractionized service's build log: the generic list build log (shared/sorted-list/build-log.ts). */
import type { Store } from "../store";
import { ListBuildLog } from "../sorted-list";

export type FractionizedBuildLog = ListBuildLog;
export const FractionizedBuildLog = {
  open: (store: Store, clock: () => number): Promise<ListBuildLog> => ListBuildLog.open(store, "fractionized", clock),
};
